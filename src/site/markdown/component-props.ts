// Props a built-in component does not take are dropped before the page is compiled, as Mintlify's
// React components ignore props they do not read: real repositories write `<Frame border shadow>`
// or `<Card cta=… arrow>` in versions that predate a prop, and those pages render there. The
// content check names each dropped prop in a warning (check-content.ts); its value was checked like
// any other (an expression is still code). Removing them here means no component ever receives a
// prop its catalog entry does not list (docs/decisions.md#mintlify-components). A component that is
// neither built in nor the page's own becomes its content, in place, the same way.
import { Parser } from 'acorn';
import acornJsx from 'acorn-jsx';
import type { Program } from 'estree';
import type { MdastPluginEntry, MdastVisitorContext, MdxJsxFlowElement, MdxJsxTextElement, PluginFactoryContext } from 'satteri';
import { COMPONENTS } from '../components/catalog.ts';
import { boundNames } from '../content-check/literals.ts';
import { ASTRO_DIRECTIVE, isComponentName, isKnownComponent } from '../content-check/families/components.ts';

const JsxParser = Parser.extend(acornJsx());

type Element = MdxJsxFlowElement | MdxJsxTextElement;

/** Names a page's imports and `export const` bind (with code, a page may define its own `Card`). */
function declaredNames(source: string): string[] {
  let program: Program;
  try {
    program = JsxParser.parse(source, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as Program;
  } catch {
    return []; // refused by the check that ran first
  }
  return program.body.flatMap((statement) => {
    if (statement.type === 'ImportDeclaration') return statement.specifiers.map((s) => s.local.name);
    if (statement.type === 'ExportNamedDeclaration' && statement.declaration?.type === 'VariableDeclaration') return statement.declaration.declarations.flatMap((d) => boundNames(d.id));
    return [];
  });
}

/** `needed`: whether a compile's file may have such props (the check before the build knows; build-check.ts). */
export function componentPropsPlugin(needed: (ctx: PluginFactoryContext) => boolean): MdastPluginEntry {
  return (ctx: PluginFactoryContext) => {
    // Most pages have none: skipping them skips Sätteri's reading of every element for the visitors below.
    if (ctx.sourceFormat !== 'mdx' || !needed(ctx)) return null;
    const declared = new Set<string>();
    const dropUnknownProps = (node: Readonly<Element>, c: MdastVisitorContext) => {
      // A component nobody defines: its content in its place, as a fragment (Mintlify deploys such
      // pages; the content check named it in a warning).
      if (node.name && isComponentName(node.name) && !isKnownComponent(node.name, declared)) {
        c.replaceNode(node, { ...node, name: null, attributes: [] } as Element);
        return;
      }
      const spec = node.name ? COMPONENTS[node.name] : undefined;
      if (!spec || declared.has(node.name!.split('.')[0] ?? '')) return;
      const attributes = node.attributes.filter((attr) => attr.type !== 'mdxJsxAttribute' || Object.hasOwn(spec.props, attr.name) || ASTRO_DIRECTIVE.test(attr.name));
      if (attributes.length !== node.attributes.length) c.replaceNode(node, { ...node, attributes } as Element);
    };
    return {
      name: 'folio-component-props',
      before(root) {
        for (const node of root.children) if (node.type === 'mdxjsEsm') for (const name of declaredNames(node.value)) declared.add(name);
      },
      mdxJsxFlowElement: dropUnknownProps,
      mdxJsxTextElement: dropUnknownProps,
    };
  };
}
