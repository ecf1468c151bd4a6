// A plain Markdown rendering of an operation page, for llms.txt and other text outputs.
import { toCleanMarkdown } from '../markdown/clean-markdown.ts';
import { PARAMETER_LOCATIONS } from './model.ts';
import type { OperationPageModel, ParameterModel, SchemaNode } from './model.ts';

/** The operation as Markdown: heading, request line, description, parameters, body, responses, curl. */
export function operationToMarkdown(page: OperationPageModel): string {
  const request = page.webhook !== undefined ? `Webhook \`${page.webhook}\` (\`${page.method.toUpperCase()}\` to your server)` : `\`${page.method.toUpperCase()} ${page.apiPath}\``;
  const parts = [`# ${page.title}`, `${request}${page.deprecated ? ' (deprecated)' : ''}`];
  if (page.content) parts.push(page.content);
  if (page.summary && page.summary !== page.title) parts.push(page.summary);
  if (page.description) parts.push(prose(page.description));
  if (page.scopes.length > 0) parts.push(`Required scope: ${page.scopes.map((scope) => `\`${scope}\``).join(', ')}`);
  for (const location of PARAMETER_LOCATIONS) {
    const parameters = page.parameters[location];
    if (parameters.length > 0) parts.push(`## ${capitalise(location)} parameters\n\n${parameters.map(parameterLine).join('\n')}`);
  }
  if (page.requestBody) {
    const body = page.requestBody.content
      .map((media) => `${media.mediaType}${media.schema ? `\n\n${schemaLines(media.schema, 0).join('\n')}` : ''}`)
      .join('\n\n');
    const heading = `## Request body${page.requestBody.required ? ' (required)' : ''}`;
    parts.push([heading, page.requestBody.description && prose(page.requestBody.description), body].filter(Boolean).join('\n\n'));
  }
  if (page.responses.length > 0) {
    const responses = page.responses.map((response) => {
      const schema = response.content.find((media) => media.schema)?.schema;
      return `- **${response.status}**: ${oneLine(response.description)}${schema ? ` (${typeText(schema.refName ?? schema.type)})` : ''}`;
    });
    parts.push(`## Responses\n\n${responses.join('\n')}`);
  }
  if (page.webhook === undefined) parts.push(`## Example request\n\n\`\`\`bash\n${page.curl}\n\`\`\``);
  return `${parts.join('\n\n')}\n`;
}

function parameterLine(parameter: ParameterModel): string {
  const facts = [typeText(parameter.type), parameter.required ? 'required' : 'optional'];
  if (parameter.default !== undefined) facts.push(`default ${JSON.stringify(parameter.default)}`);
  if (parameter.enum) facts.push(`one of ${parameter.enum.map((value) => JSON.stringify(value)).join(', ')}`);
  if (parameter.deprecated) facts.push('deprecated');
  return `- \`${parameter.name}\` (${facts.join(', ')})${parameter.description ? `: ${oneLine(parameter.description)}` : ''}`;
}

function schemaLines(node: SchemaNode, depth: number): string[] {
  const indent = '  '.repeat(depth);
  const children = [...(node.properties ?? []), ...(node.variants ?? []), ...(node.items?.properties ?? [])];
  return children.flatMap((child) => {
    const label = child.name ?? child.refName ?? child.type;
    const type = typeText(child.circular ? `circular: ${child.circular}` : `${child.type}${child.nullable ? ' | null' : ''}`);
    const line = `${indent}- \`${label}\` (${type}${child.required ? ', required' : ''})${child.description ? `: ${oneLine(child.description)}` : ''}`;
    return [line, ...(child.circular ? [] : schemaLines(child, depth + 1))];
  });
}

/**
 * A type as text (`array<Pet>`, `integer <int64>`): its angle brackets escaped, or a Markdown
 * reader takes `<Pet>` for an HTML tag and shows nothing (docs/decisions.md#ai-ready-docs).
 */
function typeText(type: string): string {
  return type.replace(/[\\<>]/g, '\\$&');
}

/**
 * A description from the spec as clean Markdown: raw HTML in it (which the page sanitises)
 * becomes its text, as in every page's Markdown (clean-markdown.ts).
 */
function prose(markdown: string): string {
  return toCleanMarkdown(markdown, false).trim();
}

function oneLine(markdown: string): string {
  return prose(markdown).replace(/\s*\n\s*/g, ' ');
}

function capitalise(word: string): string {
  return word[0].toUpperCase() + word.slice(1);
}
