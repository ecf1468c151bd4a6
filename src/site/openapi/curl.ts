// The copyable request example of an operation page.
import type { JsonValue, ParameterModel, SecurityModel } from './model.ts';

export interface CurlInput {
  method: string;
  serverUrl?: string;
  apiPath: string;
  parameters: ParameterModel[];
  security: SecurityModel[];
  body?: { mediaType: string; sample: JsonValue };
  /** Optional query, header and cookie parameters too (docs.json `api.examples.defaults: "all"`). */
  allParameters?: boolean;
}

/** What every request example shows: the URL, headers and body, with placeholders. */
export interface RequestParts {
  method: string;
  url: string;
  headers: [string, string][];
  /** `name=value; …` of the required cookies. */
  cookie?: string;
  body?: { mediaType: string; text: string };
}

export function requestParts(input: CurlInput): RequestParts {
  const base = (input.serverUrl ?? 'https://api.example.com').replace(/\/+$/, '');
  const query = input.parameters
    .filter((parameter) => parameter.in === 'query' && (parameter.required || input.allParameters))
    .map((parameter) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(placeholder(parameter))}`);
  // Path placeholders take the parameter's example, else `<name>`: curl would expand `{id}` as a glob.
  const path = input.apiPath.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const parameter = input.parameters.find((p) => p.in === 'path' && p.name === name);
    // `<`, `>` mark a placeholder; `/` stays, for parameters that are paths themselves.
    return parameter ? encodeURIComponent(placeholder(parameter)).replace(/%3C|%3E|%2F/g, decodeURIComponent) : whole;
  });
  const headers: [string, string][] = credentialHeaders(input.security).map((header) => {
    const colon = header.indexOf(': ');
    return [header.slice(0, colon), header.slice(colon + 2)];
  });
  for (const parameter of input.parameters.filter((p) => p.in === 'header' && (p.required || input.allParameters))) headers.push([parameter.name, placeholder(parameter)]);
  const cookies = input.parameters.filter((p) => p.in === 'cookie' && (p.required || input.allParameters));
  const parts: RequestParts = { method: input.method.toUpperCase(), url: `${base}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`, headers };
  if (cookies.length > 0) parts.cookie = cookies.map((p) => `${p.name}=${placeholder(p)}`).join('; ');
  if (input.body) {
    const text = typeof input.body.sample === 'string' ? input.body.sample : JSON.stringify(input.body.sample, null, 2);
    parts.body = { mediaType: input.body.mediaType, text };
  }
  return parts;
}

/** A curl command with placeholders for path parameters and credentials. */
export function curlCommand(input: CurlInput): string {
  const parts = requestParts(input);
  const lines = [`curl -X ${parts.method} ${quote(parts.url)}`];
  for (const [name, value] of parts.headers) lines.push(`-H ${quote(`${name}: ${value}`)}`);
  if (parts.cookie) lines.push(`--cookie ${quote(parts.cookie)}`);
  if (parts.body) {
    lines.push(`-H ${quote(`Content-Type: ${parts.body.mediaType}`)}`);
    lines.push(`--data ${quote(parts.body.text)}`);
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
