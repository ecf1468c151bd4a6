// Request examples of an operation page in several languages, all from the same request parts
// (curl.ts), plus the author's own `x-codeSamples` (Redocly's extension, which Mintlify reads).
import { curlCommand, requestParts } from './curl.ts';
import type { CurlInput, RequestParts } from './curl.ts';
import type { CodeSampleModel } from './model.ts';
import { isSchema } from './schema-tree.ts';

/** The generated languages, in tab order: key, label. */
export const GENERATED_LANGUAGES = [
  ['bash', 'cURL'],
  ['javascript', 'JavaScript'],
  ['python', 'Python'],
  ['go', 'Go'],
] as const;

/** Language names authors use (docs.json `api.examples.languages`, `x-codeSamples` `lang`) → our key. */
const ALIASES: Record<string, string> = {
  curl: 'bash', shell: 'bash', sh: 'bash', bash: 'bash',
  js: 'javascript', javascript: 'javascript', node: 'javascript', fetch: 'javascript',
  py: 'python', python: 'python', go: 'go', golang: 'go',
};

export function languageKey(name: string): string {
  const lower = name.trim().toLowerCase();
  return ALIASES[lower] ?? lower.replace(/[^a-z0-9+#-]+/g, '-');
}

/**
 * The examples of one operation: the author's `x-codeSamples` first (they know their SDKs), then
 * the generated ones in `languages` order (all four when not given) not already written by the author.
 */
export function codeSamples(input: CurlInput, operation: Record<string, unknown>, languages?: string[]): CodeSampleModel[] {
  const authored = authoredSamples(operation);
  const taken = new Set(authored.map((sample) => sample.lang));
  const wanted = languages?.length ? languages.map(languageKey) : GENERATED_LANGUAGES.map(([key]) => key);
  const parts = requestParts(input);
  const generated = GENERATED_LANGUAGES.filter(([key]) => wanted.includes(key) && !taken.has(key))
    .sort(([a], [b]) => wanted.indexOf(a) - wanted.indexOf(b))
    .map(([lang, label]) => ({ lang, label, source: lang === 'bash' ? curlCommand(input) : GENERATORS[lang](parts) }));
  return [...authored, ...generated];
}

function authoredSamples(operation: Record<string, unknown>): CodeSampleModel[] {
  const list = operation['x-codeSamples'] ?? operation['x-code-samples'];
  if (!Array.isArray(list)) return [];
  return list.filter(isSchema).flatMap((sample) => {
    if (typeof sample.source !== 'string' || typeof sample.lang !== 'string') return [];
    const label = typeof sample.label === 'string' && sample.label.trim() ? sample.label : sample.lang;
    return [{ lang: languageKey(sample.lang), label, source: sample.source }];
  });
}

const GENERATORS: Record<'javascript' | 'python' | 'go', (parts: RequestParts) => string> = {
  javascript(parts) {
    const headers = [...parts.headers, ...(parts.cookie ? [['Cookie', parts.cookie] as [string, string]] : []), ...(parts.body ? [['Content-Type', parts.body.mediaType] as [string, string]] : [])];
    const options = [`  method: ${js(parts.method)},`];
    if (headers.length) options.push(`  headers: {\n${headers.map(([name, value]) => `    ${js(name)}: ${js(value)},`).join('\n')}\n  },`);
    if (parts.body) options.push(`  body: ${isJson(parts.body.mediaType) ? `JSON.stringify(${indent(parts.body.text, '  ')})` : js(parts.body.text)},`);
    return [`const response = await fetch(${js(parts.url)}, {`, ...options, '});', '', `const data = await response.${parts.body && !isJson(parts.body.mediaType) ? 'text' : 'json'}();`, 'console.log(response.status, data);'].join('\n');
  },
  python(parts) {
    const lines = ['import requests', '', `url = ${py(parts.url)}`];
    const headers = [...parts.headers, ...(parts.body && !isJson(parts.body.mediaType) ? [['Content-Type', parts.body.mediaType] as [string, string]] : [])];
    const args = ['url'];
    if (headers.length) {
      lines.push(`headers = {\n${headers.map(([name, value]) => `    ${py(name)}: ${py(value)},`).join('\n')}\n}`);
      args.push('headers=headers');
    }
    if (parts.cookie) {
      lines.push(`cookies = {\n${parts.cookie.split('; ').map((pair) => { const at = pair.indexOf('='); return `    ${py(pair.slice(0, at))}: ${py(pair.slice(at + 1))},`; }).join('\n')}\n}`);
      args.push('cookies=cookies');
    }
    if (parts.body && isJson(parts.body.mediaType)) {
      lines.push(`payload = ${pythonLiteral(parts.body.text)}`);
      args.push('json=payload');
    } else if (parts.body) {
      lines.push(`payload = ${py(parts.body.text)}`);
      args.push('data=payload');
    }
    lines.push('', `response = requests.request(${py(parts.method)}, ${args.join(', ')})`, 'print(response.status_code, response.text)');
    return lines.join('\n');
  },
  go(parts) {
    const lines = ['package main', '', 'import (', '\t"fmt"', '\t"io"', '\t"net/http"'];
    if (parts.body) lines.push('\t"strings"');
    lines.push(')', '', 'func main() {');
    if (parts.body) lines.push(`\tbody := strings.NewReader(${goString(parts.body.text)})`);
    lines.push(`\treq, err := http.NewRequest(${goString(parts.method)}, ${goString(parts.url)}, ${parts.body ? 'body' : 'nil'})`, '\tif err != nil {', '\t\tpanic(err)', '\t}');
    for (const [name, value] of parts.headers) lines.push(`\treq.Header.Set(${goString(name)}, ${goString(value)})`);
    if (parts.cookie) lines.push(`\treq.Header.Set("Cookie", ${goString(parts.cookie)})`);
    if (parts.body) lines.push(`\treq.Header.Set("Content-Type", ${goString(parts.body.mediaType)})`);
    lines.push('', '\tres, err := http.DefaultClient.Do(req)', '\tif err != nil {', '\t\tpanic(err)', '\t}', '\tdefer res.Body.Close()', '\tdata, _ := io.ReadAll(res.Body)', '\tfmt.Println(res.Status, string(data))', '}');
    return lines.join('\n');
  },
};

function isJson(mediaType: string): boolean {
  return /[/+]json\b/i.test(mediaType);
}

const js = (text: string) => JSON.stringify(text);
// A JSON string literal is a valid Python string literal once non-ASCII stays escaped.
const py = (text: string) => JSON.stringify(text);
// Go interprets the same escapes as JSON in double-quoted strings, except `\/`, which JSON.stringify never writes.
const goString = (text: string) => JSON.stringify(text);

function indent(text: string, by: string): string {
  return text.split('\n').join(`\n${by}`);
}

/** JSON text as a Python literal: true/false/null become True/False/None outside strings. */
function pythonLiteral(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return py(text);
  }
  const write = (value: unknown, depth: number): string => {
    const pad = '    '.repeat(depth + 1);
    const end = '    '.repeat(depth);
    if (value === null) return 'None';
    if (value === true) return 'True';
    if (value === false) return 'False';
    if (typeof value === 'string') return py(value);
    if (typeof value === 'number') return String(value);
    if (Array.isArray(value)) return value.length ? `[\n${value.map((item) => `${pad}${write(item, depth + 1)},`).join('\n')}\n${end}]` : '[]';
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length ? `{\n${entries.map(([key, item]) => `${pad}${py(key)}: ${write(item, depth + 1)},`).join('\n')}\n${end}}` : '{}';
  };
  return write(parsed, 0);
}
