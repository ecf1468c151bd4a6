// Full-text search for a built site: a Pagefind index written into `<outDir>/pagefind/`, queried
// by the site's client script from the static files alone.
import path from 'node:path';
import * as pagefind from 'pagefind';

/** Indexes the HTML of `outDir`; returns the number of pages indexed. */
export async function writeSearchIndex(outDir: string): Promise<number> {
  const { index, errors } = await pagefind.createIndex({ keepIndexUrl: false });
  if (!index) throw new Error(`search index: ${errors.join('; ')}`);
  try {
    const added = await index.addDirectory({ path: outDir });
    if (added.errors.length) throw new Error(`search index: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: path.join(outDir, 'pagefind') });
    if (written.errors.length) throw new Error(`search index: ${written.errors.join('; ')}`);
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}
