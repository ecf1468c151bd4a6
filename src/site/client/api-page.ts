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
  bodyMediaType?: string;
  rawBody?: boolean;
}
type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
/** A field's value as it will be sent (undefined: left out), and whether every part of it is valid. */
interface Collected {
  value?: unknown;
  ok: boolean;
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
  // A field's message goes once the reader changes it.
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLElement;
    if (target.matches('[data-field]')) showError(form, target, '');
  });
  form.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest('button');
    if (button?.classList.contains('playground-add')) addItem(form, button.closest<HTMLElement>('fieldset.playground-array')!);
    else if (button?.classList.contains('playground-remove')) removeItem(button.closest<HTMLElement>('li.playground-item')!);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const fields = [...form.querySelectorAll<HTMLElement>('fieldset.playground-fields')].flatMap(fieldsIn);
    const values = new Map<HTMLElement, unknown>();
    let ok = true;
    for (const field of fields) {
      const collected = collect(form, field);
      ok &&= collected.ok;
      if (collected.value !== undefined) values.set(field, collected.value);
    }
    if (!ok) {
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    void send(form, spec, values);
  });
}

/** The fields directly inside `container` (not those of a nested object or list, nor templates). */
function fieldsIn(container: Element): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (const child of container.children) {
    if (child instanceof HTMLTemplateElement) continue;
    if (child instanceof HTMLElement && child.hasAttribute('data-field')) found.push(child);
    else found.push(...fieldsIn(child));
  }
  return found;
}

function itemsOf(list: HTMLElement): HTMLElement[] {
  return [...list.querySelectorAll<HTMLElement>(':scope > .playground-items > .playground-item')].flatMap((item) => fieldsIn(item).slice(0, 1));
}

/** True when the reader filled anything inside `field` (a list's items count even when empty). */
function touched(field: HTMLElement): boolean {
  if (field.dataset.type === 'array') return itemsOf(field).length > 0;
  if (field.dataset.type === 'object') return fieldsIn(field).some(touched);
  return (field as Control).value !== '';
}

function collect(form: HTMLFormElement, field: HTMLElement): Collected {
  const required = field.hasAttribute('data-required');
  if (field.dataset.type === 'object') {
    // An optional object nobody filled is left out, whatever its own fields require.
    if (!required && !touched(field)) {
      for (const control of field.querySelectorAll<HTMLElement>('[data-field]')) showError(form, control, '');
      return { ok: true };
    }
    const value: Record<string, unknown> = {};
    let ok = true;
    for (const child of fieldsIn(field)) {
      const collected = collect(form, child);
      ok &&= collected.ok;
      if (collected.value !== undefined) value[child.dataset.name ?? ''] = collected.value;
    }
    return { ok, value };
  }
  if (field.dataset.type === 'array') {
    const items = itemsOf(field);
    const min = Math.max(Number(field.dataset.minItems ?? 0), required ? 1 : 0);
    const results = items.map((item) => collect(form, item));
    const tooFew = items.length < min ? `Add at least ${min} item${min === 1 ? '' : 's'}.` : '';
    showError(form, field, tooFew);
    if (!items.length && !tooFew) return { ok: true };
    return { ok: !tooFew && results.every((r) => r.ok), value: results.map((r) => r.value ?? null) };
  }
  const problem = validate(field as Control);
  showError(form, field, problem.message);
  return { ok: !problem.message, value: problem.value };
}

/** A new item of a list: its template, with ids made unique, then focus on its first input. */
function addItem(form: HTMLFormElement, list: HTMLElement): void {
  const template = list.querySelector<HTMLTemplateElement>(':scope > template')!;
  const item = template.content.cloneNode(true) as DocumentFragment;
  const token = /__N\d+__/.exec(template.innerHTML)?.[0];
  if (token) renumber(item, token, String((itemCount += 1)));
  const added = item.firstElementChild as HTMLElement;
  list.querySelector(':scope > .playground-items')!.append(item);
  showError(form, list, '');
  added.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
}
let itemCount = 0;

/** Puts `index` for `token` in the ids and references of `root`, and of the templates inside it. */
function renumber(root: DocumentFragment | Element, token: string, index: string): void {
  for (const element of root.querySelectorAll('*')) {
    for (const name of ['id', 'for', 'aria-describedby', 'data-error-for']) {
      const value = element.getAttribute(name);
      if (value?.includes(token)) element.setAttribute(name, value.replaceAll(token, index));
    }
    if (element instanceof HTMLTemplateElement) renumber(element.content, token, index);
  }
}

function removeItem(item: HTMLElement): void {
  const list = item.closest<HTMLElement>('fieldset.playground-array');
  item.remove();
  list?.querySelector<HTMLElement>(':scope > .playground-row .playground-add')?.focus();
}

// Formats a reader gets wrong most often, checked before sending (others go as typed).
const FORMATS: Record<string, { test: (text: string) => boolean; message: string }> = {
  email: { test: (t) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t), message: 'Not an email address (name@example.com).' },
  uri: { test: (t) => URL.canParse(t), message: 'Not a URL (https://…).' },
  url: { test: (t) => URL.canParse(t), message: 'Not a URL (https://…).' },
  uuid: { test: (t) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t), message: 'Not a UUID (8-4-4-4-12 hexadecimal digits).' },
  date: { test: (t) => /^\d{4}-\d{2}-\d{2}$/.test(t) && !Number.isNaN(Date.parse(t)), message: 'Not a date (YYYY-MM-DD).' },
  'date-time': { test: (t) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(t) && !Number.isNaN(Date.parse(t)), message: 'Not a date and time (2025-01-31T09:30:00Z).' },
  ipv4: { test: (t) => /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(t), message: 'Not an IPv4 address.' },
};

/** The field's value as it will be sent, or why it cannot be. */
function validate(input: Control): { message: string; value?: unknown } {
  const text = input.value;
  const type = input.dataset.type;
  // A number field holding something else reads as empty: say so rather than send nothing.
  if (input instanceof HTMLInputElement && input.validity.badInput) return { message: 'Not a number.' };
  if (text === '') return { message: input.required ? 'Required.' : '' };
  if (input instanceof HTMLInputElement && !input.checkValidity()) return { message: input.validationMessage };
  if (input instanceof HTMLTextAreaElement && !input.checkValidity()) return { message: input.validationMessage };
  const format = FORMATS[input.dataset.format ?? ''];
  if (format && !format.test(text)) return { message: format.message };
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

function showError(form: HTMLFormElement, field: HTMLElement, message: string): void {
  const slot = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(field.id)}"]`);
  if (slot) slot.textContent = message;
  if (message) field.setAttribute('aria-invalid', 'true');
  else field.removeAttribute('aria-invalid');
}

async function send(form: HTMLFormElement, spec: Playground, values: Map<HTMLElement, unknown>): Promise<void> {
  const server = (form.querySelector<HTMLInputElement | HTMLSelectElement>('[name="server"]')?.value ?? '').replace(/\/+$/, '');
  const query = new URLSearchParams();
  const headers = new Headers();
  const body: Record<string, unknown> = {};
  let rawBody: unknown;
  let path = spec.path;
  const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  for (const [field, value] of values) {
    const name = field.dataset.name ?? '';
    // A list in a parameter goes the way OpenAPI's default styles send it: repeated in the query
    // (form, exploded), comma-separated in a path or header (simple).
    const list = Array.isArray(value) && field.dataset.type === 'array' ? value.map(asText) : undefined;
    const text = list ? list.join(',') : asText(value);
    if (field.dataset.in === 'path') path = path.replaceAll(`{${name}}`, encodeURIComponent(text));
    else if (field.dataset.in === 'query' && list) for (const item of list) query.append(name, item);
    else if (field.dataset.in === 'query') query.append(name, text);
    else if (field.dataset.in === 'header') headers.set(name, text);
    else if (field.dataset.in === 'body' && spec.rawBody) rawBody = value;
    else if (field.dataset.in === 'body') body[name] = value;
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
