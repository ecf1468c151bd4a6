// The whole Astro config of the site role: one content root into one static output directory, as
// the build's settings say (settings.ts). Each build may run in its own Astro root so concurrent
// builds never share `.astro/`; source and public dirs stay absolute.
import path from 'node:path';
import type { AstroUserConfig } from 'astro';
import { createRunnableDevEnvironment, type Plugin } from 'vite';
import mdx from '@astrojs/mdx';
import { satteri } from '@astrojs/markdown-satteri';
import { astroCacheDir, siteSettings, siteSrcDir, type SiteSettings } from './settings.ts';
import { contentLayout } from './layout.ts';
import { folioSite } from './integration.ts';
import { devDataStoreFile } from './dev/dev-reload.ts';
import { snippetHastPlugin, snippetMdastPlugin } from './markdown/snippet-placeholders.ts';
import { MARKDOWN_FEATURES } from './markdown/features.ts';
import { snippetImportsPlugin } from './markdown/snippet-imports.ts';
import { componentPropsPlugin } from './markdown/component-props.ts';
import { imagePathsPlugin } from './markdown/image-paths.ts';
import { codeBlockTransformers } from './markdown/code-blocks.ts';
import { richBlocksPlugin } from './markdown/rich-blocks.ts';
import { MDX_OPTIONS } from './markdown/static-mdx.ts';
import { contentCheckPlugin, priorCheck, type ContentGuard } from './content-check/build-check.ts';
import { readCheckedFile } from './content-check/checked-files.ts';
import { vendorAssets } from './components/mintlify/vendor.ts';

/**
 * `settings`: the build's inputs (astro.config.mjs, the entry of `astro dev`, passes none: they come
 * from its FOLIO_* variables). `guard` collects what the content check inside this build refused
 * (the build then fails).
 */
export async function roleConfig(settings: SiteSettings = siteSettings(), guard: ContentGuard = { problems: [] }): Promise<AstroUserConfig> {
  const layout = contentLayout(settings.contentRoot);
  // Only a build with code loads React and the code plugins (code/integration.ts).
  const code = settings.allowCode ? await (await import('./code/integration.ts')).codeIntegrations(settings.contentRoot) : [];
  const prior = priorCheck(settings.contentRoot, settings.allowCode, settings.allowCode ? new Set() : readCheckedFile(settings.buildRoot));
  return {
    root: settings.buildRoot,
    srcDir: siteSrcDir,
    // Mintlify's layout has no public/: its static files are listed and copied one by one after the
    // build (src/builder/output.ts), so dot files, docs.json and ignored files are never served.
    publicDir: layout.publicDir ? path.join(settings.contentRoot, layout.publicDir) : path.join(settings.buildRoot, 'no-public'),
    outDir: settings.outDir,
    cacheDir: astroCacheDir(settings.buildRoot),
    output: 'static',
    site: settings.siteUrl,
    trailingSlash: 'ignore',
    build: { format: 'directory' },
    devToolbar: { enabled: false },
    markdown: {
      // MDX uses this processor too (@astrojs/mdx extends the Markdown config): one parser, one
      // set of features and the content check first, for every file the build compiles.
      processor: satteri({
        features: { ...MARKDOWN_FEATURES },
        mdastPlugins: [contentCheckPlugin(guard, prior), componentPropsPlugin((ctx) => prior(ctx).dropsProps), imagePathsPlugin(settings.contentRoot), snippetImportsPlugin(settings.contentRoot, settings.allowCode, (ctx) => prior(ctx).hasEsm), snippetMdastPlugin(settings.contentRoot)],
        hastPlugins: [snippetHastPlugin(settings.contentRoot), richBlocksPlugin()],
      }),
      // Mermaid blocks are drawn in the browser (rich-blocks.ts); math is Sätteri's (never highlighted).
      syntaxHighlight: { type: 'shiki', excludeLangs: ['mermaid'] },
      // One tokenization per block, coloured by CSS variables with light and dark values (theme.css);
      // dual Shiki themes tokenize every block twice.
      shikiConfig: { theme: 'css-variables', transformers: codeBlockTransformers() },
    },
    // vendorAssets before folioSite: vendor.ts says why.
    integrations: [...code, mdx({ ...MDX_OPTIONS }), vendorAssets(), folioSite(settings, guard)],
    vite: {
      server: {
        fs: { allow: [settings.contentRoot, siteSrcDir] },
        // A save seen half-written (an editor truncates, then writes) would be read as an empty page,
        // and the write that follows in the same millisecond raises no second event: the preview's
        // watcher waits until a file's size has held still (docs/decisions.md#a-preview-save-is-a-module-reload).
        watch: {
          awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 },
          // Astro reloads the open pages itself when it writes its content store, and takes the
          // watcher's event for that write as its echo only within a second: with the wait above, on a
          // busy machine the echo came later and reloaded the pages once more, after the reader had
          // clicked on (docs/decisions.md#a-preview-save-is-a-module-reload). Only this process writes the store.
          ignored: [devDataStoreFile(settings.buildRoot)],
        },
      },
      logLevel: 'warn',
      build: {
        // Scripts stay files, never inlined into pages: served sites allow no inline script (their
        // Content-Security-Policy, src/hosting/content-security-policy.ts). Other assets: Vite's default.
        assetsInlineLimit: (file: string) => (/\.[cm]?js$/.test(file) ? false : undefined),
        rolldownOptions: {
          // Every MDX module triggers this known, harmless warning (docs/architecture.md): on a 1,000-page
          // site that is 1,000 code frames to format and log. Everything else is still reported.
          onLog(level, log, handler) {
            if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.message.includes('astro:head-inject')) return;
            handler(level, log);
          },
        },
      },
    },
  };
}

/**
 * For `astro build` only (src/builder/build-worker.ts): Astro's own modules are loaded by Node, not run through
 * Vite's module runner, in the one Vite server of a build, the content sync's. The content config
 * (content.config.ts) imports Astro's loaders, which read no virtual module; through Vite that is
 * about a hundred of Astro's files transformed and run again in every build (~0.3 s, a fifth of a
 * fast redeploy's Astro step), where a warm worker has them loaded already. The build's bundle is
 * made by Vite's build, which this leaves alone. (`astro dev` renders pages with its server, whose
 * Astro modules do read virtual modules: it never gets this plugin.)
 *
 * Nor source maps in that server: by default Vite's module runner turns on Node's source maps for
 * the whole process and hands every module it runs an inline map, which Node then decodes and
 * keeps; about 0.3 s of CPU in every build (Vite writing the maps, Node reading them) for stack
 * traces nobody reads: the build's errors reach the author as messages, never as stack frames
 * (build-worker.ts, reportError). Its server environments are made as Vite makes them by default,
 * without either (docs/decisions.md, "Astro's start and sync in a one-page build at 25k").
 */
export function nativeAstroInContentSync(): Plugin {
  return {
    name: 'folio:native-astro-in-content-sync',
    configEnvironment: (name, options, env) => {
      if (env.command !== 'serve') return undefined;
      const runsModules = name !== 'client' && options.consumer !== 'client' && !options.dev?.createEnvironment;
      return {
        resolve: { external: ['astro'] },
        ...(runsModules && { dev: { createEnvironment: (environment, config) => createRunnableDevEnvironment(environment, config, { runnerOptions: { sourcemapInterceptor: false }, remoteRunner: { inlineSourceMap: false } }) } }),
      };
    },
  };
}
