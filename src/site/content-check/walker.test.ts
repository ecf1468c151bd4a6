// The walker on hand-made trees (the shapes Sätteri gives): what each family sees depends on the
// order of the walk (ESM first, references after the definitions), not only on the node itself.
import { describe, expect, it } from 'vitest';
import type { MdNode } from './analysis.ts';
import { analyzeTree } from './walker.ts';

const at = (line: number, column = 1) => ({ position: { start: { line, column } } });
const root = (...children: MdNode[]): MdNode => ({ type: 'root', children });
const element = (name: string, line: number, attributes: MdNode['attributes'] = [], children: MdNode[] = []): MdNode => ({ type: 'mdxJsxFlowElement', name, attributes, children, ...at(line) });
const messages = (tree: MdNode, allowCode = false) => analyzeTree(tree, { file: 'page.mdx', kind: 'page', allowCode });

describe('the content check walker', () => {
  it('knows a component the page imports below where it is used', () => {
    const tree = root(element('Chart', 1), { type: 'mdxjsEsm', value: "import Chart from './chart.jsx'", ...at(3) });
    const analysis = messages(tree, true);
    expect(analysis.warnings).toEqual([]);
    expect(analysis.hasEsm).toBe(true);
    // Without code the import is refused, and its name is not reported again as an unknown component.
    const refused = messages(tree);
    expect(refused.problems.map((p) => p.line)).toEqual([3]);
    expect(refused.warnings).toEqual([]);
  });

  it('refuses a data: URL definition at the definition, once a link refers to it (after the walk)', () => {
    const definition: MdNode = { type: 'definition', identifier: 'x', url: 'data:text/html,<b>hi</b>', ...at(5) };
    const link: MdNode = { type: 'paragraph', children: [{ type: 'linkReference', identifier: 'x', children: [], ...at(1) }] };
    expect(messages(root(definition)).problems).toEqual([]);
    const problems = messages(root(link, definition)).problems;
    expect(problems.map((p) => p.line)).toEqual([5]);
    expect(problems[0]?.message).toMatch(/^URL "data:text\/html,<b>hi<\/b>" is not allowed: a data: URL as a link target/);
  });

  it('checks markup in a prop as if it stood in the page, at the element holding it', () => {
    const card = element('Card', 7, [{ type: 'mdxJsxAttribute', name: 'icon', value: { type: 'mdxJsxAttributeValueExpression', value: '<svg onload="alert(1)"><script>{x()}</script></svg>' } }]);
    const problems = messages(root(card)).problems;
    expect(problems.map((p) => [p.line, p.message.split(':')[0]])).toEqual([
      [7, 'event handler attribute "onload" is not allowed'],
      [7, 'the <script> element is not allowed in Folio content'],
      [7, 'expression {x()} is not allowed'],
    ]);
  });

  it('does not look into an expression or ESM node, and reports each node once, in page order', () => {
    const tree = root(
      { type: 'heading', data: { hProperties: { id: 'a', onclick: 'x' } }, children: [], ...at(1) },
      { type: 'mdxFlowExpression', value: 'run()', children: [{ type: 'html', value: '<script>', ...at(9) }], ...at(2) },
      { type: 'html', value: '<a title="', ...at(3) },
    );
    expect(messages(tree).problems.map((p) => p.line)).toEqual([1, 2, 3]);
  });
});
