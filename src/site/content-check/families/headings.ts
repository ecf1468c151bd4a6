// The heading family. `## Setup {#setup}` sets the heading's anchor, as on Mintlify. The parser
// also reads classes and any `key=value` in those braces, which would become attributes of the
// heading (an `onclick` too): only the id is content.
import type { CheckFamily, PageCheck } from '../analysis.ts';

export function headingFamily({ report }: PageCheck): CheckFamily {
  return {
    nodes: {
      heading(node) {
        for (const name of Object.keys(node.data?.hProperties ?? {})) {
          if (name !== 'id') report(node, `heading attribute ${name === 'className' ? '.class' : JSON.stringify(name)} is not allowed: only {#id} may follow a heading (it sets the heading's anchor)`);
        }
      },
    },
  };
}
