// Each page's rendered content in a file of its own beside Astro's content store, not inside it
// (docs/decisions.md, "Sites of 25,000 pages, step two"). Astro bundles the whole store into the
// build as one module (`export default JSON.parse("…")`, one string of every entry), and the
// bundler copies that string: at 25,000 pages it asked for 348 MB at once and failed under the
// build's memory limit. A page's rendered HTML (Markdown) or tree (an MDX page kept as data) was
// about two thirds of the store; it is read back when that one page renders. Each page's body (its
// MDX or Markdown source) likewise ("A page's source out of Astro's content store"): it was most of
// what was left, which Astro loads whole at a build's start and saves whole after the sync, even in
// a one-page fast build. It is read back where a page's Markdown is made.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { firstHeading, startsWithTitleHeading } from '../page-rules.ts';

/** The key of `rendered.metadata` that says the entry's rendered content is in its file (entryFile, `.json`). */
const RENDERED_FILE = 'folioRenderedFile';

/**
 * The `rendered` Astro stores for every entry whose rendered content is in its file: one object for
 * all of them. The file is found again by the id's hash, as the body's is, so the entry names no
 * path; and devalue, which writes the store, writes an object met again as a reference to its first
 * place, so this costs each entry one number instead of three values and a path (about a third of
 * the store at 25,000 pages: Astro loads, saves and bundles it whole in every build; docs/decisions.md,
 * "Astro's start and sync in a one-page build at 25k"). Nothing changes an entry's `rendered` in place:
 * withRenderedContent makes a new entry.
 */
const RENDERED_IN_FILE = { html: '', metadata: { [RENDERED_FILE]: true } };

/** Where a collection's rendered content goes: under Astro's cache folder of this build, beside the store. */
export const renderedDir = (cacheDir: URL | string, collection: string) => path.join(typeof cacheDir === 'string' ? cacheDir : fileURLToPath(cacheDir), 'folio-rendered', collection);

/** An entry's file in `dir`, named by a hash of its id, never by the id: ids come from the tenant's file names. */
const entryFile = (dir: string, id: string, extension: string) => path.join(dir, `${createHash('sha256').update(id).digest('hex').slice(0, 40)}${extension}`);

/**
 * What the site model needs of a page's body for every page (pages.ts: its title, whether it has
 * its own heading; machine-readable.ts: whether the snippets are needed), worked out when the body
 * is read so that building the site model reads no page's body.
 */
export interface BodyFacts {
  /** The body's first `# heading` (page-rules.ts firstHeading). */
  heading?: string;
  /** The body starts with its own `# heading` (page-rules.ts startsWithTitleHeading). */
  ownTitle: boolean;
  /** The body names a `<Snippet`: its Markdown needs the snippets' sources. */
  usesSnippets: boolean;
}

/**
 * Begins the `body` Astro stores for an entry whose body is in a file of its own; the rest is its
 * BodyFacts as JSON. A NUL, which no body in the store can start with: every body a loader gives
 * this store goes to a file.
 */
const BODY_IN_FILE = '\u0000folio-body-in-file:';

const factsOf = (body: string): BodyFacts => ({ heading: firstHeading(body), ownTitle: startsWithTitleHeading(body), usesSnippets: body.includes('<Snippet') });

/**
 * `loader`, with the rendered content of every entry it stores written to a file of its own (named
 * by a hash of the entry's id, never by the id: ids come from the tenant's file names), and the
 * entry stored with RENDERED_IN_FILE in its place; its body too, the stored body only its
 * BodyFacts; both files found again by the id's hash alone, so the store names no path: a fast redeploy's
 * build carries the previous build's cache into a build root of its own (src/builder/build.ts, `carryCache`).
 * Logs how many pages were read again: the files listed-files-loader.ts read (it keeps an entry
 * git says is unchanged without reading its file), or with Astro's glob loader, which reads every
 * file, the entries stored again (it keeps an entry whose file has the stored digest).
 */
export function renderedInFiles(loader: Loader): Loader {
  return {
    ...loader,
    load: async (context: LoaderContext) => {
      const dir = renderedDir(context.config.cacheDir, context.collection);
      fs.mkdirSync(dir, { recursive: true });
      const carried = context.store.keys().length;
      let stored = 0;
      let read: number | undefined;
      const fileLoaded = (wasRead: boolean) => (read = (read ?? 0) + (wasRead ? 1 : 0));
      const store: LoaderContext['store'] = {
        ...context.store,
        set: (entry) => {
          stored++;
          let moved = entry;
          if (entry.body) {
            replaceFile(entryFile(dir, entry.id, '.body'), entry.body);
            moved = { ...moved, body: BODY_IN_FILE + JSON.stringify(factsOf(entry.body)) };
          }
          if (!entry.rendered) return context.store.set(moved);
          replaceFile(entryFile(dir, entry.id, '.json'), JSON.stringify(entry.rendered));
          return context.store.set({ ...moved, rendered: RENDERED_IN_FILE });
        },
      };
      await loader.load({ ...context, store, fileLoaded } as LoaderContext);
      // Read by bench:deploy and test/service/fast-redeploy*.test.ts.
      if (carried) context.logger.info(`[folio] content sync: ${read ?? stored} of ${context.store.keys().length} ${context.collection} read again (the others unchanged since the previous build)`);
    },
  };
}

/**
 * Writes `file` as a new file, never into the one at its name: a carried cache's files stay the
 * uid's of the build that wrote them, and this build's uid may only replace them in its folder
 * (src/builder/build-cache.ts, giveCacheToSandbox). A build that fails keeps no cache, so a
 * half-written one is never carried.
 */
function replaceFile(file: string, text: string): void {
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, text, { flag: 'wx' });
}

/**
 * `entry` as Astro's `render()` and static-mdx-render.ts expect it: its rendered content read back
 * from its file in the build's Astro cache folder `cacheDir` (a store written before
 * RENDERED_IN_FILE names the file, relative to the build root `buildRoot`).
 */
export function withRenderedContent<T extends { id: string; collection: string; rendered?: { metadata?: Record<string, unknown> } }>(entry: T, cacheDir: string, buildRoot: string): T {
  const file = entry.rendered?.metadata?.[RENDERED_FILE];
  if (file !== true && typeof file !== 'string') return entry;
  const inCache = file === true ? entryFile(renderedDir(cacheDir, entry.collection), entry.id, '.json') : path.resolve(buildRoot, file);
  return { ...entry, rendered: JSON.parse(fs.readFileSync(inCache, 'utf8')) as T['rendered'] };
}

/** What the site model needs of a page's body (BodyFacts), without reading its file. */
export function bodyFacts(entry: { body?: string }): BodyFacts {
  const body = entry.body ?? '';
  if (!body.startsWith(BODY_IN_FILE)) return factsOf(body);
  const facts = JSON.parse(body.slice(BODY_IN_FILE.length)) as BodyFacts;
  return { heading: typeof facts.heading === 'string' ? facts.heading : undefined, ownTitle: facts.ownTitle === true, usesSnippets: facts.usesSnippets === true };
}

/** An entry's body (its MDX or Markdown source): read back from its file in the build's Astro cache folder `cacheDir` when stored there. */
export function entryBody(entry: { id: string; collection: string; body?: string }, cacheDir: string): string {
  const body = entry.body ?? '';
  if (!body.startsWith(BODY_IN_FILE)) return body;
  return fs.readFileSync(entryFile(renderedDir(cacheDir, entry.collection), entry.id, '.body'), 'utf8');
}
