// MDX pages without code, compiled once while the content collection syncs into a data tree instead
// of a JavaScript module per page (docs/decisions.md#mdx-pages-as-data). Under the default policy
// the content check already allows only literal props, built-in components and checked snippets,
// so what @astrojs/mdx would make of such a page is a fixed tree of `jsx(type, props)` calls with
// literal values. This module runs the very compile @astrojs/mdx runs (the same Sätteri processor,
// plugins, content check and Shiki), reads the module it produced (static-mdx-module.ts, which never
// runs it), and keeps it only if every part is one of: a jsx call whose type is an HTML tag name,
// Astro's Fragment or a component the page names, and props that are literals, arrays, plain
// objects or jsx calls.
// That tree is stored as JSON in the entry; static-mdx-render.ts builds the same calls from it at
// render time. Nothing of the module is ever run, and no code is made from the page: anything else
// (an import, an export, an expression, a variable) leaves the page on the MDX path, where it is
// compiled, checked and refused exactly as before.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import type { AstroConfig } from 'astro';
import type { Loader, LoaderContext } from 'astro/loaders';
import type { ContextWithEntryTypes } from '../loaders/listed-files-loader.ts';
import { MARKDOWN_FEATURES } from './features.ts';
import { withHeldWarnings } from './compile-warnings.ts';
import { moduleToTree } from './static-mdx-module.ts';
import type { StaticPage } from './static-mdx-tree.ts';

/** The options the build gives `mdx()` (astro-config.ts); the static compile must use the same. */
export const MDX_OPTIONS = { optimize: true } as const;

/** Marks an entry the static compile left to the MDX path. */
const FALLBACK = 'folioMdxFallback';

/** The part of @astrojs/mdx's processor the static compile uses (the markdown processor's `createMdxRenderer`). */
interface MdxRenderer {
  process(content: string, filePath: string, frontmatter: Record<string, unknown>): Promise<{ code: string }>;
}
interface MdxProcessor {
  createMdxRenderer?(shared: Record<string, unknown>, mdx: Record<string, unknown>): Promise<MdxRenderer>;
}

/** The same compile @astrojs/mdx runs on a page (its vite plugin: the file's text, frontmatter blanked out). */
async function compileFile(renderer: MdxRenderer, filePath: string): Promise<StaticPage> {
  const text = await fs.promises.readFile(filePath, 'utf8');
  const { frontmatter, content } = parseFrontmatter(text, { frontmatter: 'empty-with-spaces' });
  const { code } = await renderer.process(content, filePath, frontmatter);
  return moduleToTree(code);
}

/**
 * The pages loader, with its MDX pages compiled at sync time into data trees where they can be
 * (`rendered.metadata.folioStaticMdx`), and left to the MDX module path (deferred render) where
 * they cannot. Only for builds without code: a build with code keeps every page on the MDX path.
 */
export function staticMdxPages(loader: Loader): Loader {
  return {
    ...loader,
    load: (context: LoaderContext) => {
      const { entryTypes } = context as ContextWithEntryTypes;
      const mdx = entryTypes.get('.mdx');
      if (!mdx || mdx.getRenderFunction) return loader.load(context);
      const withStatic = new Map(entryTypes);
      withStatic.set('.mdx', { ...mdx, getRenderFunction: async (config) => staticRenderFunction(config as AstroConfig) });
      const store: LoaderContext['store'] = {
        ...context.store,
        set: (entry) => {
          const metadata = entry.rendered?.metadata as Record<string, unknown> | undefined;
          return context.store.set(metadata?.[FALLBACK] ? { ...entry, rendered: undefined, deferredRender: true } : entry);
        },
      };
      return loader.load({ ...context, store, entryTypes: withStatic } as LoaderContext);
    },
  };
}

async function staticRenderFunction(config: AstroConfig) {
  const processor = config.markdown.processor as unknown as MdxProcessor;
  // What @astrojs/mdx resolves for its own compile (its index.js, astro:config:done): the Markdown
  // config, with gfm and smart punctuation from the processor's features.
  const renderer = await processor.createMdxRenderer?.(
    { syntaxHighlight: config.markdown.syntaxHighlight, shikiConfig: config.markdown.shikiConfig, gfm: MARKDOWN_FEATURES.gfm, smartypants: MARKDOWN_FEATURES.smartPunctuation },
    { ...MDX_OPTIONS, srcDir: config.srcDir, sourcemap: false },
  );
  return async (entry: { filePath?: string }) => {
    if (!renderer || !entry.filePath) return { html: '', metadata: { [FALLBACK]: true } };
    try {
      const file = path.resolve(fileURLToPath(config.root), entry.filePath);
      // A page that falls back is compiled again on the MDX path, which logs its warnings then.
      const { tree, headings, frontmatter } = await withHeldWarnings(file, () => compileFile(renderer, file));
      return { html: '', metadata: { headings, frontmatter, imagePaths: [], folioStaticMdx: JSON.stringify(tree) } };
    } catch {
      // Not data, or refused by the content check: the MDX path compiles it again and reports
      // exactly what it reports today.
      return { html: '', metadata: { [FALLBACK]: true } };
    }
  };
}
