// JavaScript in braces, read as the build's compiler reads it: one expression, the literal values
// content may hold (no identifiers, calls or spreads) and their values, the names a declaration
// binds. Pure; shared by the check families and the build's rewrites (markdown/, code/).
import { Parser, parse, tokenizer } from 'acorn';
import acornJsx from 'acorn-jsx';
import type { Node as EstreeNode, Pattern, Program } from 'estree';

export const JS = { ecmaVersion: 'latest', sourceType: 'module' } as const;
export const JsxParser = Parser.extend(acornJsx());

/**
 * The expression in braces as JavaScript: null for a comment or nothing (`{/* note *\/}`),
 * undefined when it is not exactly one expression.
 */
export function readExpression(source: string): EstreeNode | null | undefined {
  try {
    if (tokenizer(source, JS).getToken().type.label === 'eof') return null;
    // Parenthesized and on its own line, as a compiler embeds it: `a), (b` stays a sequence.
    const program = parse(`(${source}\n)`, JS) as unknown as Program;
    const statement = program.body[0];
    return program.body.length === 1 && statement?.type === 'ExpressionStatement' ? statement.expression : undefined;
  } catch {
    return undefined;
  }
}

/** True for the literal values Folio content may hold in braces: no identifiers, calls or spreads. */
export function isLiteral(node: EstreeNode | null | undefined): boolean {
  if (!node) return false;
  switch (node.type) {
    case 'Literal':
      return !('regex' in node && node.regex);
    case 'TemplateLiteral':
      return node.expressions.length === 0;
    case 'UnaryExpression':
      return (node.operator === '-' || node.operator === '+') && node.argument.type === 'Literal' && typeof node.argument.value === 'number';
    case 'ArrayExpression':
      return node.elements.every((e) => e !== null && e.type !== 'SpreadElement' && isLiteral(e));
    case 'ObjectExpression':
      return node.properties.every(
        (p) =>
          p.type === 'Property' && p.kind === 'init' && !p.computed && !p.method && !p.shorthand &&
          (p.key.type === 'Identifier' || p.key.type === 'Literal') && isLiteral(p.value as EstreeNode),
      );
    default:
      return false;
  }
}

/** The value of a literal expression (see isLiteral). */
export function literalValue(node: EstreeNode): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'TemplateLiteral':
      return node.quasis.map((q) => q.value.cooked).join('');
    case 'UnaryExpression':
      return (node.operator === '-' ? -1 : 1) * Number((node.argument as { value: unknown }).value);
    case 'ArrayExpression':
      return node.elements.map((e) => literalValue(e as EstreeNode));
    case 'ObjectExpression':
      return Object.fromEntries(
        node.properties.map((p) => {
          const prop = p as { key: EstreeNode; value: EstreeNode };
          const key = prop.key.type === 'Identifier' ? prop.key.name : String((prop.key as { value: unknown }).value);
          return [key, literalValue(prop.value)];
        }),
      );
    default:
      return undefined;
  }
}

/** Every string in a literal value (an object's values, an array's items, nested). */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** The names a declaration's pattern binds (`const { a, b: [c] } = …` binds a and c). */
export function boundNames(pattern: Pattern): string[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((p) => boundNames(p.type === 'RestElement' ? p.argument : p.value));
    case 'ArrayPattern':
      return pattern.elements.flatMap((e) => (e ? boundNames(e) : []));
    case 'RestElement':
      return boundNames(pattern.argument);
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    default:
      return [];
  }
}
