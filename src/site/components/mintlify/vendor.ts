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

/** The URL path prefix of the copied libraries. */
export const VENDOR_PATH = '/_folio/vendor';

export const KATEX_CSS = `${VENDOR_PATH}/katex/katex.min.css`;
export const MERMAID_JS = `${VENDOR_PATH}/mermaid/mermaid.min.js`;

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

export function vendorAssets(): AstroIntegration {
  return {
    name: 'folio-vendor-assets',
    hooks: {
      'astro:build:done': ({ dir }) => {
        const out = fileURLToPath(dir);
        const wanted = copies();
        const needed = new Set<string>();
        for (const file of htmlFiles(out)) {
          const html = fs.readFileSync(file, 'utf8');
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
