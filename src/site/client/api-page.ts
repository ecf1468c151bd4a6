// The script of API reference pages (src/site/openapi/OperationPage.astro, Playground.astro):
// request-example tabs whose language is remembered across pages (localStorage), and the "Try it"
// playground, which sends the request from the reader's browser straight to the API. Vanilla and
// self-hosted: served sites allow scripts from their own origin only.
const LANGUAGE_KEY = 'folio-code-language';
const AUTH_KEY = 'folio-playground-auth:';

function stored(storage: 'local' | 'session', key: string): string | null {
  try {
    return (storage === 'local' ? localStorage : sessionStorage).getItem(key);
  } catch {
    return null; // storage switched off: nothing is remembered
  }
}

function store(storage: 'local' | 'session', key: string, value: string): void {
  try {
    const target = storage === 'local' ? localStorage : sessionStorage;
    if (value) target.setItem(key, value);
    else target.removeItem(key);
  } catch {
    // storage switched off: the value lasts for this page only
  }
}

// ---- Request-example tabs (WAI-ARIA tabs: arrows, Home and End move between them) ----

function selectTab(group: HTMLElement, tab: HTMLButtonElement, focus: boolean): void {
  for (const other of group.querySelectorAll<HTMLButtonElement>('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    const panel = document.getElementById(other.getAttribute('aria-controls') ?? '');
    if (panel) panel.hidden = !selected;
  }
  if (focus) tab.focus();
}

const tabGroups = [...document.querySelectorAll<HTMLElement>('[data-code-samples]')];
for (const group of tabGroups) {
  const tabs = [...group.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const remembered = stored('local', LANGUAGE_KEY);
  const initial = tabs.find((tab) => tab.dataset.lang === remembered);
  if (initial) selectTab(group, initial, false);
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      selectTab(group, tab, false);
      store('local', LANGUAGE_KEY, tab.dataset.lang ?? '');
      // Every example group of the page follows the reader's choice.
      for (const other of tabGroups) {
        const match = other !== group && other.querySelector<HTMLButtonElement>(`[role="tab"][data-lang="${CSS.escape(tab.dataset.lang ?? '')}"]`);
        if (match) selectTab(other, match, false);
      }
    });
    tab.addEventListener('keydown', (event) => {
      const index = tabs.indexOf(tab);
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      const target = tabs[(next + tabs.length) % tabs.length];
      selectTab(group, target, true);
      store('local', LANGUAGE_KEY, target.dataset.lang ?? '');
    });
  }
}

// ---- The playground ----

interface Field {
  in: 'path' | 'query' | 'header' | 'cookie' | 'body';
  name: string;
  required: boolean;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'json';
  enum?: unknown[];
}
interface Auth {
  scheme: string;
  kind: 'bearer' | 'basic' | 'apiKey';
  in?: 'header' | 'query';
  name?: string;
}
interface Playground {
  method: string;
  path: string;
  servers: string[];
  auth: Auth[];
  fields: Field[];
  bodyMediaType?: string;
  rawBody?: boolean;
}

for (const section of document.querySelectorAll<HTMLElement>('.openapi-playground[data-playground]')) {
  const form = section.querySelector<HTMLFormElement>('form.playground-form');
  if (form) setUpPlayground(form, JSON.parse(section.dataset.playground ?? '{}') as Playground);
}

function setUpPlayground(form: HTMLFormElement, spec: Playground): void {
  const authInputs = [...form.querySelectorAll<HTMLInputElement>('input[data-auth]')];
  for (const input of authInputs) {
    const key = `${AUTH_KEY}${input.dataset.auth}${input.dataset.part ? `:${input.dataset.part}` : ''}`;
    input.value = stored('session', key) ?? '';
    input.addEventListener('input', () => store('session', key, input.value));
  }
  const inputs = [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('[data-in]')];
  for (const input of inputs) input.addEventListener('input', () => showError(form, input, ''));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = new Map<HTMLElement, unknown>();
    let firstInvalid: HTMLElement | undefined;
    for (const input of inputs) {
      const problem = validate(input);
      showError(form, input, problem.message);
      if (problem.message) firstInvalid ??= input;
      else if (problem.value !== undefined) values.set(input, problem.value);
    }
    if (firstInvalid) {
      firstInvalid.focus();
      return;
    }
    void send(form, spec, inputs, values);
  });
}

/** The field's value as it will be sent, or why it cannot be. */
function validate(input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): { message: string; value?: unknown } {
  const text = input.value;
  const type = input.dataset.type;
  // A number field holding something else reads as empty: say so rather than send nothing.
  if (input instanceof HTMLInputElement && input.validity.badInput) return { message: 'Not a number.' };
  if (text === '') return { message: input.required ? 'Required.' : '' };
  if (input instanceof HTMLInputElement && !input.checkValidity()) return { message: input.validationMessage };
  if (input instanceof HTMLTextAreaElement && !input.checkValidity()) return { message: input.validationMessage };
  if (type === 'json' || (input instanceof HTMLSelectElement && type !== 'string')) {
    try {
      return { message: '', value: JSON.parse(text) };
    } catch {
      return type === 'json' ? { message: 'Not valid JSON.' } : { message: '', value: text };
    }
  }
  if (type === 'integer' || type === 'number') return { message: '', value: Number(text) };
  return { message: '', value: text };
}

function showError(form: HTMLFormElement, input: HTMLElement, message: string): void {
  const slot = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(input.id)}"]`);
  if (slot) slot.textContent = message;
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

async function send(form: HTMLFormElement, spec: Playground, inputs: HTMLElement[], values: Map<HTMLElement, unknown>): Promise<void> {
  const server = (form.querySelector<HTMLInputElement | HTMLSelectElement>('[name="server"]')?.value ?? '').replace(/\/+$/, '');
  const query = new URLSearchParams();
  const headers = new Headers();
  const body: Record<string, unknown> = {};
  let rawBody: unknown;
  let path = spec.path;
  for (const input of inputs) {
    if (!values.has(input)) continue;
    const value = values.get(input);
    const name = input.dataset.name ?? '';
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (input.dataset.in === 'path') path = path.replaceAll(`{${name}}`, encodeURIComponent(text));
    else if (input.dataset.in === 'query') query.append(name, text);
    else if (input.dataset.in === 'header') headers.set(name, text);
    else if (input.dataset.in === 'body' && spec.rawBody) rawBody = value;
    else if (input.dataset.in === 'body') body[name] = value;
  }
  for (const auth of spec.auth) {
    const part = (p?: string) => form.querySelector<HTMLInputElement>(`input[data-auth="${CSS.escape(auth.scheme)}"]${p ? `[data-part="${p}"]` : ':not([data-part])'}`)?.value ?? '';
    if (auth.kind === 'bearer' && part()) headers.set('Authorization', `Bearer ${part()}`);
    else if (auth.kind === 'basic' && (part('user') || part('password'))) headers.set('Authorization', `Basic ${btoa(`${part('user')}:${part('password')}`)}`);
    else if (auth.kind === 'apiKey' && part() && auth.in === 'header') headers.set(auth.name ?? '', part());
    else if (auth.kind === 'apiKey' && part() && auth.in === 'query') query.set(auth.name ?? '', part());
  }
  const init: RequestInit = { method: spec.method, headers, credentials: 'omit', mode: 'cors', redirect: 'follow' };
  if (spec.bodyMediaType && (spec.rawBody ? rawBody !== undefined : Object.keys(body).length > 0)) {
    headers.set('Content-Type', spec.bodyMediaType);
    const payload = spec.rawBody ? rawBody : body;
    init.body = /json/i.test(spec.bodyMediaType) ? JSON.stringify(payload) : String(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }
  const url = `${server}${path}${query.size ? `?${query}` : ''}`;
  const result = form.querySelector<HTMLElement>('.playground-result')!;
  const status = result.querySelector<HTMLElement>('[data-status]')!;
  const time = result.querySelector<HTMLElement>('[data-time]')!;
  const headerList = result.querySelector<HTMLElement>('[data-headers]')!;
  const bodyView = result.querySelector<HTMLElement>('[data-body]')!;
  const button = form.querySelector<HTMLButtonElement>('.playground-send')!;
  button.disabled = true;
  result.hidden = false;
  status.textContent = 'Sending…';
  status.removeAttribute('data-ok');
  time.textContent = '';
  headerList.textContent = '';
  bodyView.textContent = '';
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    time.textContent = `${Math.round(performance.now() - started)} ms`;
    status.textContent = `${response.status} ${response.statusText || statusText(response.status)}`.trim();
    status.dataset.ok = String(response.ok);
    headerList.textContent = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    showBody(bodyView, text);
  } catch {
    time.textContent = `${Math.round(performance.now() - started)} ms`;
    status.textContent = 'No answer';
    status.dataset.ok = 'false';
    bodyView.textContent = `The request to ${server || 'the server'} failed: the server could not be reached, or it does not allow requests from this site (CORS).`;
  } finally {
    button.disabled = false;
  }
}

function statusText(status: number): string {
  return ({ 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error' } as Record<number, string>)[status] ?? '';
}

/** The body, pretty-printed and highlighted when it is JSON (built from text nodes: nothing is parsed as HTML). */
function showBody(target: HTMLElement, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    target.textContent = text;
    return;
  }
  const pretty = JSON.stringify(parsed, null, 2);
  const token = /("(?:\\.|[^"\\])*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;
  let last = 0;
  for (const match of pretty.matchAll(token)) {
    target.append(pretty.slice(last, match.index));
    const span = document.createElement('span');
    span.className = match[1] ? (match[2] ? 'json-key' : 'json-string') : match[3] ? 'json-number' : 'json-literal';
    span.textContent = match[1] ?? match[0];
    target.append(span);
    if (match[2]) target.append(match[2]);
    last = match.index + match[0].length;
  }
  target.append(pretty.slice(last));
}
