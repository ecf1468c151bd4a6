// A docs.json or OpenAPI change in `npm run dev` / `folio dev` without restarting astro dev
// (docs/decisions.md#docsjson-changes-in-the-preview): the site's settings module
// (`virtual:folio/site-build`) is made again, every module that imported it, directly or not, is
// evaluated again at the next request (routes, layouts, pages.ts, which list the pages and build the
// navigation per request in dev), and the open pages reload. A restart would list and sync every page
// again: seconds on a large repository.
import fs from 'node:fs';
import path from 'node:path';
import type { ViteDevServer } from 'vite';
import { PAGE_SETTINGS_EVENT } from './preview-settings-names.ts';

/**
 * Forgets the module `id` (a resolved id) and every module that imports it, in each of the dev
 * server's environments, so that the next request evaluates them again from the new source.
 */
export function invalidateWithImporters(server: ViteDevServer, id: string): void {
  const timestamp = Date.now();
  for (const environment of Object.values(server.environments)) {
    // The transformed code (Vite invalidates the importers' along with it).
    const module = environment.moduleGraph.getModuleById(id);
    if (module) environment.moduleGraph.invalidateModule(module, new Set(), timestamp, true);
    // The evaluated modules of an environment that runs its code in this process (Astro's SSR):
    // invalidating a module there does not reach its importers, which hold the old exports.
    const evaluated = 'runner' in environment ? (environment as { runner: { evaluatedModules: EvaluatedModules } }).runner.evaluatedModules : undefined;
    if (!evaluated) continue;
    const seen = new Set<string>();
    const queue = [id];
    while (queue.length) {
      const next = queue.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      const node = evaluated.getModuleById(next);
      if (!node) continue;
      evaluated.invalidateModule(node);
      queue.push(...node.importers);
    }
  }
}

/** What of Vite's module runner's EvaluatedModules this uses (vite/module-runner). */
interface EvaluatedModules {
  getModuleById(id: string): { importers: Set<string> } | undefined;
  invalidateModule(node: { importers: Set<string> }): void;
}

/** Reloads every open page of the preview. */
export function reloadPages(server: ViteDevServer): void {
  server.environments.client.hot.send({ type: 'full-reload', path: '*' });
}

/**
 * Reloads a page that connects with settings older than `current()`. A reload is sent to the pages
 * connected at that moment: a page that was itself reloading then (after a saved page, a moment
 * before docs.json was saved) connected after it and kept the old sidebar for good.
 */
export function reloadStalePages(server: ViteDevServer, current: () => number): void {
  server.environments.client.hot.on(PAGE_SETTINGS_EVENT, (payload: { settingsVersion?: unknown } | undefined, client: { send(payload: { type: 'full-reload'; path: string }): void }) => {
    if (payload?.settingsVersion !== current()) client.send({ type: 'full-reload', path: '*' });
  });
}

/**
 * Vite's error overlay for a problem that outlives a reload (a broken docs.json): shown over the open
 * pages, and over each page that connects while it lasts (a page reloading when it was sent would
 * miss it), until `clear`.
 */
export function errorOverlay(server: ViteDevServer): { show(message: string): void; clear(): void } {
  let shown: ErrorPayload | undefined;
  server.environments.client.hot.on('vite:client:connect', (_payload: unknown, client: { send(payload: ErrorPayload): void }) => {
    if (shown) client.send(shown);
  });
  return {
    show(message) {
      shown = { type: 'error', err: { message, stack: '' } };
      server.environments.client.hot.send(shown);
    },
    clear() {
      shown = undefined;
    },
  };
}

interface ErrorPayload {
  type: 'error';
  err: { message: string; stack: string };
}

/**
 * The content store Astro writes in the preview's build root. Astro reloads the open pages itself
 * each time it writes it (its data-store invalidation), so the preview's watcher ignores the file
 * (astro-config.ts) and a reload after a sync that wrote it is not sent twice (integration.ts).
 */
export const devDataStoreFile = (buildRoot: string) => path.join(buildRoot, '.astro', 'data-store.json');

/** When the content store was last written (undefined before its first write). */
export const dataStoreWritten = (buildRoot: string): Promise<number | undefined> =>
  fs.promises.stat(devDataStoreFile(buildRoot)).then((stat) => stat.mtimeMs, () => undefined);
