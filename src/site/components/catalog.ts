// Folio's authoring components, by name. The content checker and the renderer both read this list,
// so an MDX page can use exactly these tags without imports.

export const BADGE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;
export type BadgeMethod = (typeof BADGE_METHODS)[number];

/** The theme token that colours each method's badge (docs/decisions.md#content-root rule 2). */
export const METHOD_TOKENS: Record<BadgeMethod, string> = {
  GET: '--docs-success',
  POST: '--docs-info',
  PUT: '--docs-warning',
  PATCH: '--docs-primary',
  DELETE: '--docs-danger',
  OPTIONS: '--docs-fg-muted',
  HEAD: '--docs-fg-muted',
};

/** Returns the canonical method name, or undefined when the value is not one of the seven. */
export function normalizeMethod(value: unknown): BadgeMethod | undefined {
  if (typeof value !== 'string') return undefined;
  const upper = value.trim().toUpperCase();
  return (BADGE_METHODS as readonly string[]).includes(upper) ? (upper as BadgeMethod) : undefined;
}

export const CALLOUT_KINDS = ['note', 'tip', 'info', 'warning', 'check', 'danger'] as const;

/**
 * What a prop takes. Markup (a JSX literal such as `icon={<svg …/>}` or `title={<>New <b>API</b></>}`)
 * is accepted for `markup` and `icon` props only: it is content, checked like the page
 * (docs/decisions.md#mintlify-components).
 */
export type PropKind = 'text' | 'markup' | 'icon' | 'boolean' | 'number' | 'list' | 'any';

export interface ComponentSpec {
  props: Record<string, PropKind>;
}

/**
 * The icon libraries of Mintlify's `iconLibrary` prop that Folio renders from its npm icon packages
 * (icons.ts). Another library (Mintlify's docs.json also knows tabler) is a warning, and the name
 * is then looked up as without the prop.
 */
export const ICON_LIBRARIES = ['fontawesome', 'lucide'] as const;
export type IconLibrary = (typeof ICON_LIBRARIES)[number];

/** The library `value` names (case and spaces aside), or undefined for one Folio cannot render. */
export function iconLibraryOf(value: unknown): IconLibrary | undefined {
  const name = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return (ICON_LIBRARIES as readonly (string | undefined)[]).includes(name) ? (name as IconLibrary) : undefined;
}

const ICON = { icon: 'icon', iconType: 'text', iconLibrary: 'text' } as const;
/** Mintlify's callouts (Note, Tip …): a `type` and `className` appear on real pages and are accepted. */
const CALLOUT = { ...ICON, color: 'text', type: 'text', className: 'text' } as const;
const FIELD = { type: 'markup', required: 'boolean', optional: 'boolean', default: 'any', deprecated: 'boolean', pre: 'list', post: 'list', hidden: 'boolean', id: 'text' } as const;

/**
 * Every component an MDX page may use without imports, with the props each accepts: Folio's own
 * (ApiMethod, Callout, Snippet) and Mintlify's built-in set, same names and props as Mintlify
 * documents them (plus a few that real Mintlify pages pass and Mintlify ignores, such as `type`
 * on Note). The content check refuses any other component or prop.
 */
export const COMPONENTS: Record<string, ComponentSpec> = {
  ApiMethod: { props: { method: 'text' } },
  Callout: { props: { kind: 'text', title: 'text', ...CALLOUT } },
  Snippet: { props: { file: 'text', vars: 'any' } },
  Note: { props: CALLOUT },
  Tip: { props: CALLOUT },
  Info: { props: CALLOUT },
  Warning: { props: CALLOUT },
  Check: { props: CALLOUT },
  Danger: { props: CALLOUT },
  Card: { props: { title: 'markup', ...ICON, color: 'text', href: 'text', horizontal: 'boolean', img: 'text', cta: 'markup', arrow: 'boolean', type: 'text', className: 'text' } },
  CardGroup: { props: { cols: 'number', className: 'text' } },
  Columns: { props: { cols: 'number', className: 'text' } },
  Column: { props: { className: 'text' } },
  Tabs: { props: { defaultTabIndex: 'number', sync: 'boolean', borderBottom: 'boolean', className: 'text' } },
  Tab: { props: { title: 'text', ...ICON, id: 'text' } },
  Accordion: { props: { title: 'markup', description: 'markup', defaultOpen: 'boolean', ...ICON, id: 'text' } },
  AccordionGroup: { props: { className: 'text' } },
  // `lazy` asks Mintlify to render the children on first opening; Folio's are static HTML, rendered anyway.
  Expandable: { props: { title: 'markup', defaultOpen: 'boolean', lazy: 'boolean' } },
  Steps: { props: { titleSize: 'text', className: 'text' } },
  Step: { props: { title: 'markup', ...ICON, stepNumber: 'number', titleSize: 'text', id: 'text' } },
  CodeGroup: { props: { dropdown: 'boolean', sync: 'boolean' } },
  RequestExample: { props: { dropdown: 'boolean' } },
  ResponseExample: { props: { dropdown: 'boolean' } },
  Frame: { props: { caption: 'markup', hint: 'markup', className: 'text' } },
  Icon: { props: { ...ICON, name: 'text', color: 'text', size: 'number', className: 'text' } },
  ParamField: { props: { query: 'text', path: 'text', body: 'text', header: 'text', name: 'text', placeholder: 'text', initialValue: 'any', ...FIELD } },
  ResponseField: { props: { name: 'text', defaultOpen: 'boolean', ...FIELD } },
  Tooltip: { props: { tip: 'markup', headline: 'markup', cta: 'markup', href: 'text' } },
  Badge: { props: { color: 'text', size: 'text', shape: 'text', ...ICON, stroke: 'boolean', disabled: 'boolean', className: 'text' } },
  Update: { props: { label: 'markup', description: 'markup', tags: 'list', rss: 'any', id: 'text' } },
  Panel: { props: {} },
  Tile: { props: { href: 'text', title: 'markup', description: 'markup' } },
  Tree: { props: {} },
  'Tree.Folder': { props: { name: 'text', defaultOpen: 'boolean', openable: 'boolean', highlight: 'boolean' } },
  'Tree.File': { props: { name: 'text', highlight: 'boolean' } },
  Color: { props: { variant: 'text' } },
  'Color.Row': { props: { title: 'markup' } },
  'Color.Item': { props: { name: 'text', value: 'any' } },
  'GitHub.Repo': { props: { repo: 'text', variant: 'text', className: 'text' } },
  Visibility: { props: { for: 'text' } },
  View: { props: { title: 'markup', ...ICON } },
  Prompt: { props: { description: 'markup', actions: 'list', ...ICON } },
  Latex: { props: {} },
  Mermaid: { props: { chart: 'text' } },
};

export const COMPONENT_NAMES = Object.keys(COMPONENTS);

/** The known component nearest to an unknown name (case and a few typos forgiven), if any is near. */
export function nearestComponent(name: string): string | undefined {
  return nearest(name, COMPONENT_NAMES);
}

/**
 * The entry of `known` nearest to `name` (case-insensitive edit distance, a swap of two neighbours
 * counting once), when close enough to be a typo: one edit per four letters, at least one.
 */
export function nearest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 4)) ? best : undefined;
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
