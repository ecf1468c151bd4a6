// Examples for a media type: the author's own (`example`, `examples`, or the schema's), else one
// synthesised from the schema so every body on a page shows what it looks like.
import type { ExampleModel, JsonValue } from './model.ts';
import { isSchema } from './schema-tree.ts';
import type { Schema } from './schema-tree.ts';

const MAX_DEPTH = 8;

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00.000Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'docs.example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'U3dhZ2dlciByb2Nrcw==',
  password: '********',
};

/** Examples of a media type object (`{ schema, example, examples }`). */
export function mediaTypeExamples(mediaType: Schema): ExampleModel[] {
  if ('example' in mediaType) return [explicit(mediaType.example)];
  if (isSchema(mediaType.examples)) {
    const named = Object.entries(mediaType.examples)
      .filter((entry): entry is [string, Schema] => isSchema(entry[1]) && 'value' in entry[1])
      .map(([name, example]) => ({
        ...explicit(example.value),
        name,
        ...(typeof example.summary === 'string' ? { summary: example.summary } : {}),
      }));
    if (named.length > 0) return named;
  }
  if (!isSchema(mediaType.schema)) return [];
  const schemaExample = authoredSchemaExample(mediaType.schema);
  if (schemaExample !== undefined) return [explicit(schemaExample)];
  return [{ value: synthesizedExample(mediaType.schema), synthesized: true }];
}

/** Synthesised examples already shown, per schema object (a $ref'd schema shows on many pages). */
const synthesized = new WeakMap<Schema, string>();

function synthesizedExample(schema: Schema): string {
  let text = synthesized.get(schema);
  if (text === undefined) synthesized.set(schema, (text = show(sampleOf(schema))));
  return text;
}

/** A sample value for `schema`, preferring values the author wrote (example, default, enum). */
export function sampleOf(schema: Schema, ancestors: object[] = [], request = false): JsonValue {
  const authored = authoredSchemaExample(schema);
  if (authored !== undefined) return authored;
  if ('default' in schema) return schema.default as JsonValue;
  if ('const' in schema) return schema.const as JsonValue;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue;
  if (ancestors.includes(schema) || ancestors.length >= MAX_DEPTH) return null;
  const inner = [...ancestors, schema];

  if (Array.isArray(schema.allOf)) return mergeSamples(schema.allOf.filter(isSchema).map((part) => sampleOf(part, inner, request)));
  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const variants = schema[combinator];
    if (Array.isArray(variants)) {
      const first = variants.filter(isSchema).find((variant) => variant.type !== 'null');
      return first ? sampleOf(first, inner, request) : null;
    }
  }
  const type = firstType(schema);
  if (type === 'object' || (type === undefined && isSchema(schema.properties))) return objectSample(schema, inner, request);
  if (type === 'array') return isSchema(schema.items) && !inner.includes(schema.items) ? [sampleOf(schema.items, inner, request)] : [];
  if (type === 'string') return stringSample(schema);
  if (type === 'integer') return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 0;
  if (type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (type === 'boolean') return true;
  return null;
}

function authoredSchemaExample(schema: Schema): JsonValue | undefined {
  if ('example' in schema) return schema.example as JsonValue;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as JsonValue;
  return undefined;
}

// A request sample leaves out read-only properties: a client never sends them.
function objectSample(schema: Schema, ancestors: object[], request: boolean): JsonValue {
  const sample: Record<string, JsonValue> = {};
  const properties = isSchema(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isSchema(property)) continue;
    if (ancestors.includes(property) || (request && property.readOnly === true)) continue;
    sample[name] = sampleOf(property, ancestors, request);
  }
  if (Object.keys(sample).length === 0 && isSchema(schema.additionalProperties)) {
    sample.key = sampleOf(schema.additionalProperties, ancestors, request);
  }
  return sample;
}

function stringSample(schema: Schema): string {
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format];
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return 'string'.padEnd(minLength, 'x');
}

function firstType(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  return undefined;
}

function mergeSamples(samples: JsonValue[]): JsonValue {
  const objects = samples.filter((sample) => isSchema(sample));
  if (objects.length === 0) return samples[0] ?? null;
  return Object.assign({}, ...objects) as JsonValue;
}

function explicit(value: unknown): ExampleModel {
  return { value: show(value as JsonValue), synthesized: false };
}

/** JSON pretty-printed, or the string itself for text examples. */
export function show(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
