// Snippets the Mintlify way, built without running any code (docs/decisions.md#content-root):
//
//   import Intro from '/snippets/intro.mdx';          <Intro name="Ada" />  → <Snippet file=… vars={{ name: "Ada" }} />
//                                                     <Intro>text</Intro>   → the snippet's {children} is that text
//   import { version } from '/snippets/values.mdx';   {version}             → the literal the snippet exports
//   export const plan = "Pro";                        {plan}, title={plan}  → "Pro"
//
// The content check accepts exactly these forms (check-content.ts: snippet imports and `export
// const` literals) and refuses every other import or export as code. This Sätteri mdast plugin runs
// after the check inside the build, on the same tree, and turns them into what Folio renders
// anyway: the ESM is removed, snippet components become Snippet calls (their props fill `{prop}`
// as plain text, as vars do), and constants become literal expressions. Projects with code
// (`allow_code`) keep the import as code instead (src/site/code/page-code.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'acorn';
import acornJsx from 'acorn-jsx';
import type { Node as EstreeNode, Program } from 'estree';
import type { MdastPluginDefinition, MdastPluginEntry, MdastVisitorContext, MdxJsxFlowElement, MdxJsxTextElement, PluginFactoryContext } from 'satteri';
import { analyzeContent } from '../content-check/check-content.ts';
import { isLiteral, literalValue } from '../content-check/literals.ts';
import { containsScriptUrl } from '../content-check/script-urls.ts';
import { contentLayout } from '../layout.ts';
import { importedSnippetKey, snippetFile } from '../snippet-paths.ts';

const JsxParser = Parser.extend(acornJsx());

const IDENTIFIER = /^\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*$/;
const HAS_ESM = /^[ \t]*(?:import|export)\b/m;

type Element = MdxJsxFlowElement | MdxJsxTextElement;

/** The literal `export const` values of a snippet file (checked before the build like any snippet). */
function snippetExports(contentRoot: string, snippetsDir: string, key: string): Record<string, unknown> {
  const file = path.join(contentRoot, snippetsDir, ...key.split('/'));
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new Error(`${snippetFile(key, snippetsDir)}: no such snippet`);
  return analyzeContent(fs.readFileSync(file, 'utf8'), { file: snippetFile(key, snippetsDir), kind: 'snippet', snippetsDir }).exports;
}

/** `needed`: whether a compile's file may have import or export statements (the check before the build knows; build-check.ts). */
export function snippetImportsPlugin(contentRoot: string, allowCode: boolean, needed: (ctx: PluginFactoryContext) => boolean): MdastPluginEntry {
  const { snippetsDir } = contentLayout(contentRoot);
  return (ctx: PluginFactoryContext) => {
    if (allowCode || ctx.sourceFormat !== 'mdx' || !ctx.fileURL || ctx.fileURL.protocol !== 'file:') return null;
    // Without an import or export there is nothing to rewrite: most pages skip the walk over every
    // element (this test matches a superset of MDX's ESM lines, which start a line, and so also
    // an `import` line of a code block, which the check before the build tells apart).
    if (!HAS_ESM.test(ctx.source) || !needed(ctx)) return null;
    const importer = path.relative(contentRoot, fileURLToPath(ctx.fileURL)).split(path.sep).join('/');
    /** Local component name → snippet key. */
    const components = new Map<string, string>();
    /** Constant name → its literal value. */
    const constants = new Map<string, unknown>();
    const constant = (source: string): { value: unknown } | undefined => {
      const name = IDENTIFIER.exec(source)?.[1];
      return name !== undefined && constants.has(name) ? { value: constants.get(name) } : undefined;
    };

    const rewriteElement = (node: Readonly<Element>, c: MdastVisitorContext) => {
      const key = node.name ? components.get(node.name) : undefined;
      if (key !== undefined) {
        // <Intro a="x" b={2} c /> → <Snippet file="snippets/intro.mdx" vars={{"a":"x","b":2,"c":true}} />
        const vars: string[] = [];
        for (const attr of node.attributes) {
          if (attr.type !== 'mdxJsxAttribute') continue;
          const value = attr.value;
          let source: string;
          if (value == null) source = 'true';
          else if (typeof value === 'string') source = JSON.stringify(value);
          else source = constant(value.value) ? JSON.stringify(constant(value.value)!.value) : value.value;
          vars.push(`${JSON.stringify(attr.name)}: (${source})`);
        }
        // Content between the tags is the snippet's `{children}`, as MDX hands it to a component
        // (<Intro>Some **text**</Intro>): rendered by the page, placed where the snippet says.
        const withChildren = node.children.length > 0;
        c.replaceNode(node, {
          ...node,
          name: 'Snippet',
          attributes: [
            { type: 'mdxJsxAttribute', name: 'file', value: snippetFile(key, snippetsDir) },
            { type: 'mdxJsxAttribute', name: 'vars', value: { type: 'mdxJsxAttributeValueExpression', value: `{${vars.join(', ')}}` } },
            ...(withChildren ? [{ type: 'mdxJsxAttribute' as const, name: 'withChildren', value: null }] : []),
          ],
          children: withChildren ? node.children : [],
        } as Element);
        return;
      }
      let changed = false;
      const attributes = node.attributes.map((attr) => {
        if (attr.type !== 'mdxJsxAttribute' || !attr.value || typeof attr.value !== 'object') return attr;
        const found = constant(attr.value.value);
        if (!found) return attr;
        changed = true;
        // An HTML element's attribute may not become a script URL through a constant.
        if (node.name && /^[a-z]/.test(node.name) && containsScriptUrl(typeof found.value === 'string' ? found.value : JSON.stringify(found.value) ?? '')) {
          throw new Error(`${importer}: attribute ${attr.name} on <${node.name}> is not allowed: javascript: URLs run script in the reader's browser`);
        }
        return { ...attr, value: { type: 'mdxJsxAttributeValueExpression' as const, value: JSON.stringify(found.value) } };
      });
      if (changed) c.replaceNode(node, { ...node, attributes } as Element);
    };

    return {
      name: 'folio-snippet-imports',
      before(root) {
        for (const node of root.children) {
          if (node.type !== 'mdxjsEsm') continue;
          const program = JsxParser.parse(node.value, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as Program;
          for (const statement of program.body) {
            if (statement.type === 'ImportDeclaration') {
              const key = importedSnippetKey(String(statement.source.value), importer, snippetsDir);
              if (key === undefined) continue; // refused by the check that ran first
              let exported: Record<string, unknown> | undefined;
              for (const s of statement.specifiers) {
                if (s.type === 'ImportDefaultSpecifier') components.set(s.local.name, key);
                else if (s.type === 'ImportSpecifier') {
                  exported ??= snippetExports(contentRoot, snippetsDir, key);
                  constants.set(s.local.name, exported[s.local.name]);
                }
              }
            } else if (statement.type === 'ExportNamedDeclaration' && statement.declaration?.type === 'VariableDeclaration') {
              for (const d of statement.declaration.declarations) {
                if (d.id.type === 'Identifier' && isLiteral(d.init as EstreeNode | null)) constants.set(d.id.name, literalValue(d.init as EstreeNode));
              }
            }
          }
        }
      },
      mdxjsEsm(node, c) {
        c.removeNode(node);
      },
      mdxJsxFlowElement: rewriteElement,
      mdxJsxTextElement: rewriteElement,
      mdxFlowExpression(node, c) {
        const found = constant(node.value);
        if (found) c.setProperty(node, 'value', JSON.stringify(found.value));
      },
      mdxTextExpression(node, c) {
        const found = constant(node.value);
        if (found) c.setProperty(node, 'value', JSON.stringify(found.value));
      },
    } satisfies MdastPluginDefinition;
  };
}
