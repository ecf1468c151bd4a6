// Components that are another component with some props set: Mintlify's six callouts are
// CalloutBox of one kind, ParamField and ResponseField are a Field. Each is the other's Astro
// factory called with the mapped props, not an .astro file that renders the other: that would be
// two component instances where one does, and a page of components has dozens of them, each
// costing render time (docs/decisions.md#mintlify-components).
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import CalloutBox from './CalloutBox.astro';
import Field from './Field.astro';

type Props = Record<string, unknown>;

/** `component` rendered with `props(authorProps)`, shown in Astro's messages as `name`. */
function variant(name: string, component: unknown, props: (authorProps: Props) => Props) {
  const factory = component as AstroComponentFactory;
  const render: AstroComponentFactory = (result, authorProps: Props | undefined, slots) => factory(result, props(authorProps ?? {}), slots);
  Object.defineProperty(render, 'name', { value: name });
  return Object.assign(render, { isAstroComponentFactory: true, moduleId: factory.moduleId, propagation: factory.propagation });
}

/** Note, Tip, Info, Warning, Check, Danger: a callout of that kind (the author cannot pass another). */
const callout = (name: string, kind: string) => variant(name, CalloutBox, (props) => ({ ...props, kind }));
export const Note = callout('Note', 'note');
export const Tip = callout('Tip', 'tip');
export const Info = callout('Info', 'info');
export const Warning = callout('Warning', 'warning');
export const Check = callout('Check', 'check');
export const Danger = callout('Danger', 'danger');

const LOCATIONS = ['query', 'path', 'body', 'header'] as const;

/** A request parameter: `query`, `path`, `body` or `header` names it and says where it goes. */
export const ParamField = variant('ParamField', Field, ({ query, path, body, header, name, initialValue, ...rest }) => {
  const named: Props = { query, path, body, header };
  const location = LOCATIONS.find((l) => named[l] !== undefined);
  return { ...rest, placeholder: rest.placeholder ?? initialValue, kind: 'param', name: location ? named[location] : name, location };
});

/** A field of an API response (Mintlify's `defaultOpen` has nothing to open here). */
export const ResponseField = variant('ResponseField', Field, ({ defaultOpen: _open, ...rest }) => ({ ...rest, kind: 'response' }));
