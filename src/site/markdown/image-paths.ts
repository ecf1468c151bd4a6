// Markdown images with a relative address (`![Flow](./flow.png)`), as real Mintlify repositories
// write them. Astro would turn each into an import of the file: a missing file then failed the whole
// build, and in a build with code the import of an image was refused (code may import only script
// and content files). Mintlify renders such a page with whatever the browser finds at the address.
//
// - Mintlify's layout serves every file at its own path, so the address becomes that path
//   (`/guides/flow.png` for `./flow.png` in guides/setup.mdx): the image shows, and nothing is
//   imported.
// - Folio's layout keeps Astro's import for a file that exists (content/ is not served as is).
// - A file that does not exist is a warning in the build log, and the page keeps a broken image
//   instead of failing the build (docs/decisions.md#content-root).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Image } from 'mdast';
import type { MdastPluginEntry, MdastVisitorContext, PluginFactoryContext } from 'satteri';
import { contentLayout } from '../layout.ts';
import { compileWarning } from './compile-warnings.ts';

/** True for an address Astro imports: not absolute, not root-relative, not a fragment or data. */
function isRelative(url: string): boolean {
  return url !== '' && !url.startsWith('/') && !url.startsWith('#') && !URL.canParse(url);
}

export function imagePathsPlugin(contentRoot: string): MdastPluginEntry {
  const { kind } = contentLayout(contentRoot);
  return (ctx: PluginFactoryContext) => {
    if (!ctx.fileURL || ctx.fileURL.protocol !== 'file:') return null;
    const file = fileURLToPath(ctx.fileURL);
    const page = path.relative(contentRoot, file).split(path.sep).join('/');
    if (page.startsWith('..') || path.isAbsolute(page)) return null;
    return {
      name: 'folio-image-paths',
      image(node: Readonly<Image>, c: MdastVisitorContext) {
        let url: string;
        try {
          url = decodeURI(node.url ?? '');
        } catch {
          return;
        }
        if (!isRelative(url)) return;
        const [filePart = ''] = url.split(/[?#]/);
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), filePart));
        if (target === '..' || target.startsWith('../')) return; // refused by the content check
        const exists = fs.lstatSync(path.join(contentRoot, ...target.split('/')), { throwIfNoEntry: false })?.isFile() === true;
        if (exists && kind === 'folio') return; // Astro's asset import, as before
        if (!exists) compileWarning(file, `[folio] warning: ${page}: image ${url}: no file ${target} in the content root; the page shows a broken image`);
        c.setProperty(node, 'url', encodeURI(`/${target}`) + url.slice(filePart.length));
      },
    };
  };
}
