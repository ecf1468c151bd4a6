// How much JavaScript a site of a project with code makes readers download, for the build log:
// every page's scripts (module scripts, modulepreloads, and each island's component and renderer),
// with the modules they import, counted once per page. Run in the build process on the build's own
// output (src/site/code/integration.ts, astro:build:done): links are not followed, only regular files
// under the output directory are read, and each file is read once.
import fs from 'node:fs';
import path from 'node:path';

export interface JavaScriptShipped {
  /** Bytes of all the JavaScript files any page loads, each counted once. */
  totalBytes: number;
  files: number;
  pages: number;
  /** The page that loads the most, and how much. */
  largest?: { page: string; bytes: number };
  /** The page that loads the least (a page without code loads only the theme's script). */
  smallest?: { page: string; bytes: number };
  /** Bytes a page loads, by page path (`/guide/`). */
  perPage: Map<string, number>;
}

/** Script addresses in a page: `src`, modulepreload `href`, an island's `component-url` and `renderer-url`. */
const PAGE_SCRIPT = /\s(?:src|component-url|renderer-url)="(\/[^"]+\.m?js)"|<link\s[^>]*rel="modulepreload"[^>]*href="(\/[^"]+\.m?js)"/g;
/** Static and dynamic imports of a built module (`from"./x.js"`, `import"./x.js"`, `import("./x.js")`). */
const MODULE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"'\s]+\.m?js)["']/g;

export function javascriptShipped(outDir: string): JavaScriptShipped {
  const root = path.resolve(outDir);
  const sizes = new Map<string, { bytes: number; imports: string[] } | undefined>();
  /** A script of the site by its absolute address (`/_astro/x.js`): size and imports, or undefined when it is no regular file of the output. */
  const script = (address: string) => {
    if (sizes.has(address)) return sizes.get(address);
    const file = path.join(root, decodeURI(address));
    let entry: { bytes: number; imports: string[] } | undefined;
    if (!path.relative(root, file).startsWith('..')) {
      const stat = fs.lstatSync(file, { throwIfNoEntry: false });
      if (stat?.isFile()) {
        const code = fs.readFileSync(file, 'utf8');
        const imports = [...code.matchAll(MODULE_IMPORT)].map((m) => path.posix.join(path.posix.dirname(address), m[1]!));
        entry = { bytes: stat.size, imports };
      }
    }
    sizes.set(address, entry);
    return entry;
  };
  const perPage = new Map<string, number>();
  const used = new Set<string>();
  const walk = (dir: string) => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, item.name);
      if (item.isDirectory()) walk(file);
      else if (item.isFile() && item.name.endsWith('.html')) {
        const html = fs.readFileSync(file, 'utf8');
        const loaded = new Set<string>();
        const queue = [...html.matchAll(PAGE_SCRIPT)].map((m) => (m[1] ?? m[2])!);
        while (queue.length) {
          const address = queue.pop()!;
          if (loaded.has(address)) continue;
          const entry = script(address);
          if (!entry) continue;
          loaded.add(address);
          queue.push(...entry.imports);
        }
        let bytes = 0;
        for (const address of loaded) {
          bytes += script(address)!.bytes;
          used.add(address);
        }
        const rel = path.relative(root, file).split(path.sep).join('/');
        perPage.set(`/${rel.replace(/(?:^|\/)index\.html$/, '').replace(/\.html$/, '')}${rel.endsWith('index.html') && rel !== 'index.html' ? '/' : ''}`, bytes);
      }
    }
  };
  walk(root);
  let largest: JavaScriptShipped['largest'];
  let smallest: JavaScriptShipped['smallest'];
  for (const [page, bytes] of perPage) {
    if (!largest || bytes > largest.bytes) largest = { page, bytes };
    if (!smallest || bytes < smallest.bytes) smallest = { page, bytes };
  }
  let totalBytes = 0;
  for (const address of used) totalBytes += script(address)!.bytes;
  return { totalBytes, files: used.size, pages: perPage.size, largest, smallest, perPage };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The build log's line: total and largest page. */
export function javascriptShippedLine(shipped: JavaScriptShipped): string {
  const largest = shipped.largest ? `; the largest page, ${shipped.largest.page}, loads ${kb(shipped.largest.bytes)}` : '';
  const smallest = shipped.smallest ? `; the smallest, ${shipped.smallest.page}, ${kb(shipped.smallest.bytes)}` : '';
  return `[folio] JavaScript shipped: ${kb(shipped.totalBytes)} in ${shipped.files} file(s) over ${shipped.pages} page(s)${largest}${smallest}`;
}
