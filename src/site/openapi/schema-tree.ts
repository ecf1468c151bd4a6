// A dereferenced JSON Schema (OpenAPI 3.0 or 3.1 flavour) → the nested display tree of a page.
import type { JsonValue, SchemaNode } from './model.ts';

export type Schema = Record<string, unknown>;

/** Names of the components $refs pointed to, keyed by the dereferenced object. */
export type RefNames = WeakMap<object, string>;

// Deep but finite documents (no cycles, but long chains) stop here rather than bloat the page.
const MAX_DEPTH = 12;

const CONSTRAINT_KEYS = [
  'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'const',
] as const;

/** The component name of a $ref such as `#/components/schemas/Pet` (→ `Pet`). */
export function refName(ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  const last = ref.split('#').pop()?.split('/').pop() || ref.split('/').pop();
  // A $ref to a whole file (`./schemas/pet.yaml`) is named after the file.
  const name = last?.replace(/\.(json|ya?ml)$/i, '');
  return name ? decodeURIComponent(name.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
}

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Trees already built, per document (its RefNames) and schema object. */
const built = new WeakMap<RefNames, WeakMap<Schema, SchemaNode>>();

/**
 * Builds the display tree of `schema`; recursion becomes a `circular` leaf naming the schema.
 * A $ref'd schema (one object in the dereferenced document) shows on many pages: its tree is built
 * once per document and shared by their page models, which nothing changes after they are built.
 */
export function schemaTree(schema: Schema, refNames: RefNames, name?: string, required = false): SchemaNode {
  if (name !== undefined || required) return build(schema, { refNames, ancestors: [] }, name, required);
  let trees = built.get(refNames);
  if (!trees) built.set(refNames, (trees = new WeakMap()));
  let tree = trees.get(schema);
  if (!tree) trees.set(schema, (tree = build(schema, { refNames, ancestors: [] }, undefined, false)));
  return tree;
}

interface Walk {
  refNames: RefNames;
  ancestors: object[];
}

function build(schema: Schema, walk: Walk, name: string | undefined, required: boolean): SchemaNode {
  const ref = refName(walk.refNames.get(schema));
  const { types, nullable } = typesOf(schema);
  const node: SchemaNode = {
    ...(name !== undefined ? { name } : {}),
    required,
    type: displayType(schema, types, isSchema(schema.items) ? refName(walk.refNames.get(schema.items)) : undefined),
    nullable,
    constraints: constraintsOf(schema),
    deprecated: schema.deprecated === true,
    readOnly: schema.readOnly === true,
    writeOnly: schema.writeOnly === true,
  };
  if (typeof schema.format === 'string') node.format = schema.format;
  if (ref) node.refName = ref;
  if (typeof schema.description === 'string') node.description = schema.description;
  if (Array.isArray(schema.enum)) node.enum = (schema.enum as JsonValue[]).filter((value) => value !== null || !nullable);
  if ('default' in schema) node.default = schema.default as JsonValue;

  if (walk.ancestors.includes(schema)) return { ...node, circular: ref ?? 'schema' };
  if (walk.ancestors.length >= MAX_DEPTH) return node;
  const inner: Walk = { ...walk, ancestors: [...walk.ancestors, schema] };

  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    const variants = schema[combinator];
    if (!Array.isArray(variants)) continue;
    // 3.0 often writes a nullable ref as anyOf [X, {type: null}]: show X and mark it nullable.
    const shown = variants.filter(isSchema).filter((variant) => !isNullOnly(variant));
    if (shown.length < variants.length) node.nullable = true;
    node.combinator = combinator;
    node.variants = shown.map((variant) => build(variant, inner, undefined, false));
    break;
  }
  const properties = schema.properties;
  if (isSchema(properties)) {
    const requiredNames = Array.isArray(schema.required) ? schema.required : [];
    node.properties = Object.entries(properties)
      .filter((entry): entry is [string, Schema] => isSchema(entry[1]))
      .map(([key, value]) => build(value, inner, key, requiredNames.includes(key)));
  }
  if (isSchema(schema.items)) node.items = build(schema.items, inner, undefined, false);
  if (isSchema(schema.additionalProperties)) {
    node.additionalProperties = build(schema.additionalProperties, inner, undefined, false);
  }
  return node;
}

function isNullOnly(schema: Schema): boolean {
  return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null');
}

/** The non-null types and whether null is allowed, for both 3.0 (`nullable`) and 3.1 (`type: [x, "null"]`). */
function typesOf(schema: Schema): { types: string[]; nullable: boolean } {
  const declared = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  const enumHasNull = Array.isArray(schema.enum) && schema.enum.includes(null);
  const nullable = schema.nullable === true || declared.includes('null') || enumHasNull;
  const types = declared.filter((type) => type !== 'null');
  return { types, nullable };
}

function displayType(schema: Schema, types: string[], itemsName?: string): string {
  if (types.length === 1 && types[0] === 'array') {
    const items = isSchema(schema.items) ? schema.items : undefined;
    return `array<${itemsName ?? (items ? itemLabel(items) : 'any')}>`;
  }
  if (types.length > 0) return types.join(' | ');
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[combinator])) return combinator;
  }
  if (isSchema(schema.properties) || isSchema(schema.additionalProperties)) return 'object';
  if (isSchema(schema.items)) return 'array';
  if ('const' in schema) return typeof schema.const;
  const enumTypes = Array.isArray(schema.enum) ? [...new Set(schema.enum.filter((value) => value !== null).map((value) => typeof value))] : [];
  return enumTypes.length > 0 ? enumTypes.join(' | ') : 'any';
}

function itemLabel(items: Schema): string {
  const { types } = typesOf(items);
  if (types.length === 1 && types[0] === 'array') return displayType(items, types, undefined);
  return types.join(' | ') || 'object';
}

function constraintsOf(schema: Schema): string[] {
  return CONSTRAINT_KEYS.filter((key) => key in schema).map((key) => `${key}: ${formatValue(schema[key])}`);
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
