// The copyable request example of an operation page.
import type { JsonValue, ParameterModel, SecurityModel } from './model.ts';

export interface CurlInput {
  method: string;
  serverUrl?: string;
  apiPath: string;
  parameters: ParameterModel[];
  security: SecurityModel[];
  body?: { mediaType: string; sample: JsonValue };
}

/** A curl command with placeholders for path parameters and credentials. */
export function curlCommand(input: CurlInput): string {
  const base = (input.serverUrl ?? 'https://api.example.com').replace(/\/+$/, '');
  const query = input.parameters
    .filter((parameter) => parameter.in === 'query' && parameter.required)
    .map((parameter) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(placeholder(parameter))}`);
  // Path placeholders take the parameter's example, else `<name>`: curl would expand `{id}` as a glob.
  const path = input.apiPath.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const parameter = input.parameters.find((p) => p.in === 'path' && p.name === name);
    // `<`, `>` mark a placeholder; `/` stays, for parameters that are paths themselves.
    return parameter ? encodeURIComponent(placeholder(parameter)).replace(/%3C|%3E|%2F/g, decodeURIComponent) : whole;
  });
  const url = `${base}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const lines = [`curl -X ${input.method.toUpperCase()} ${quote(url)}`];
  for (const header of credentialHeaders(input.security)) lines.push(`-H ${quote(header)}`);
  for (const parameter of input.parameters.filter((p) => p.in === 'header' && p.required)) {
    lines.push(`-H ${quote(`${parameter.name}: ${placeholder(parameter)}`)}`);
  }
  const cookies = input.parameters.filter((p) => p.in === 'cookie' && p.required);
  if (cookies.length > 0) {
    lines.push(`--cookie ${quote(cookies.map((p) => `${p.name}=${placeholder(p)}`).join('; '))}`);
  }
  if (input.body) {
    lines.push(`-H ${quote(`Content-Type: ${input.body.mediaType}`)}`);
    const data = typeof input.body.sample === 'string' ? input.body.sample : JSON.stringify(input.body.sample, null, 2);
    lines.push(`--data ${quote(data)}`);
  }
  return lines.join(' \\\n  ');
}

function credentialHeaders(security: SecurityModel[]): string[] {
  const [first] = security;
  if (!first) return [];
  if (first.kind === 'http bearer' || first.kind.startsWith('oauth2') || first.kind.startsWith('openIdConnect')) {
    return ['Authorization: Bearer <token>'];
  }
  if (first.kind === 'http basic') return ['Authorization: Basic <credentials>'];
  const apiKeyHeader = /^apiKey header (.+)$/.exec(first.kind);
  return apiKeyHeader ? [`${apiKeyHeader[1]}: <api-key>`] : [];
}

function placeholder(parameter: ParameterModel): string {
  const value = parameter.example ?? parameter.default ?? parameter.enum?.[0];
  if (value === undefined || value === null) return `<${parameter.name}>`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Single-quotes for a POSIX shell: nothing inside is expanded. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
