// Libraries a page may need in the browser, served by the site itself (no CDN: no network when
// reading a page, and the site's Content-Security-Policy allows only its own scripts). A page that
// uses <Latex> links KaTeX's stylesheet and fonts; one that uses <Mermaid> loads Mermaid's script.
// The files are copied into a build's output only when one of its pages refers to them.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

const require = createRequire(import.meta.url);

import { KATEX_CSS, MERMAID_JS, VENDOR_PATH } from './vendor-paths.ts';

export { KATEX_CSS, MERMAID_JS, VENDOR_PATH };

const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/** What is copied for each library: URL prefix → [source, destination] pairs. */
function copies(): Record<string, [string, string][]> {
  const katex = path.join(packageDir('katex'), 'dist');
  const mermaid = path.join(packageDir('mermaid'), 'dist');
  return {
    [`${VENDOR_PATH}/katex/`]: [
      [path.join(katex, 'katex.min.css'), 'katex/katex.min.css'],
      [path.join(katex, 'fonts'), 'katex/fonts'],
    ],
    [`${VENDOR_PATH}/mermaid/`]: [[path.join(mermaid, 'mermaid.min.js'), 'mermaid/mermaid.min.js']],
  };
}

function htmlFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile() && d.name.endsWith('.html'))
    .map((d) => path.join(d.parentPath, d.name));
}

/** The whole of `file` in `buffer` (a larger one when it does not fit), and its length. */
function readInto(file: string, buffer: Buffer): [Buffer, number] {
  const fd = fs.openSync(file, 'r');
  try {
    let length = 0;
    for (;;) {
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return [buffer, length];
      length += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Copies the libraries the pages use. Listed before the site integration, so its hook reads only
 * the pages Astro rendered, not the redirect pages that integration then writes (integration.ts).
 */
export function vendorAssets(): AstroIntegration {
  return {
    name: 'folio-vendor-assets',
    hooks: {
      'astro:build:done': ({ dir }) => {
        const out = fileURLToPath(dir);
        const wanted = copies();
        const needed = new Set<string>();
        // Each page is read into one reused buffer and searched once for the prefix both libraries
        // share, undecoded: most pages use neither.
        const marker = Buffer.from(`${VENDOR_PATH}/`);
        // A formula rendered by React code comes without its stylesheet link (react-components.ts): its class says it.
        const formula = Buffer.from('class="mint-latex');
        let buffer: Buffer = Buffer.allocUnsafe(1 << 20);
        for (const file of htmlFiles(out)) {
          let length: number;
          [buffer, length] = readInto(file, buffer);
          const page = buffer.subarray(0, length);
          if (page.indexOf(formula) >= 0) needed.add(`${VENDOR_PATH}/katex/`);
          if (page.indexOf(marker) < 0) continue;
          const html = buffer.toString('utf8', 0, length);
          for (const prefix of Object.keys(wanted)) if (html.includes(prefix)) needed.add(prefix);
          if (needed.size === Object.keys(wanted).length) break;
        }
        for (const prefix of needed) {
          for (const [from, to] of wanted[prefix] ?? []) {
            fs.cpSync(from, path.join(out, VENDOR_PATH.slice(1), to), { recursive: true });
          }
        }
      },
    },
  };
}
