// Custom CSS and JavaScript of a repository in Mintlify's layout, as Mintlify loads them
// (https://mintlify.com/docs/customize/custom-scripts): every `.css` file and every `.js` file of
// the content directory, at any depth, is included in every page. Folio lists the same files its
// layout serves (layout.ts: not under `snippets/`, not ignored, no dot files), links each stylesheet
// into every page, and runs each script only in projects with code (`allow_code`).
//
// A stylesheet is served as a file of the site and linked, never inlined: its text can then never
// close a <style> element, its relative `url()`s resolve against its own address as the author
// wrote them, and the site's Content-Security-Policy (src/hosting/content-security-policy.ts)
// decides what it may load. That policy lets stylesheets and fonts come only from the site itself
// (fonts also as `data:` URLs); images from anywhere. The check below finds the `@import`s and
// fonts a browser will therefore not load and names each one in a warning, so an author learns
// why a Mintlify stylesheet looks different here. Why: docs/decisions.md#custom-css-and-javascript.
// Plain Node, no Astro imports: the content check (in the server) and the build use it.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from './content-check/check-content.ts';
import type { RootFiles } from './layout.ts';

const STYLESHEET = /\.css$/i;
const SCRIPT = /\.js$/i;

/** The custom stylesheets and scripts of a content root, relative to it (`style.css`, `theme/dark.css`). */
export interface CustomFiles {
  styles: string[];
  scripts: string[];
}

/** The custom files among a content root's files: only Mintlify's layout has them (Folio's serves `public/` as it is). */
export function customFiles(files: Pick<RootFiles, 'layout' | 'assets'>): CustomFiles {
  if (files.layout.kind !== 'mintlify') return { styles: [], scripts: [] };
  return { styles: files.assets.filter((file) => STYLESHEET.test(file)), scripts: files.assets.filter((file) => SCRIPT.test(file)) };
}

/** The site address of a file of the content root, each segment encoded as a browser would send it. */
export const customFileHref = (file: string): string => `/${file.split('/').map(encodeURIComponent).join('/')}`;

/** Stylesheets larger than this are linked but not read for the warnings below. */
export const MAX_CHECKED_STYLESHEET_BYTES = 4 * 1024 * 1024;

/**
 * Warnings about the custom files of a content root: each script of a project without code (not
 * run), and each `@import` or font a stylesheet names that the site's policy will not load.
 */
export async function customFileWarnings(root: string, files: Pick<RootFiles, 'layout' | 'assets'>, allowCode: boolean): Promise<Problem[]> {
  const { styles, scripts } = customFiles(files);
  const warnings: Problem[] = [];
  for (const file of styles) {
    // Read without following a link (the listing refused links; this keeps it so if one appears since).
    const handle = await fs.open(path.join(root, file), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW).catch(() => undefined);
    if (!handle) continue;
    try {
      const { size } = await handle.stat();
      if (size > MAX_CHECKED_STYLESHEET_BYTES) {
        warnings.push({ file, line: 1, column: 1, message: `not checked for addresses the site cannot load (larger than ${MAX_CHECKED_STYLESHEET_BYTES / 1024 / 1024} MiB); it is linked into every page as it is` });
        continue;
      }
      warnings.push(...blockedLoads(await handle.readFile('utf8')).map((load) => ({ file, ...load })));
    } finally {
      await handle.close();
    }
  }
  if (!allowCode) {
    for (const file of scripts) {
      warnings.push({ file, line: 1, column: 1, message: 'not run: custom JavaScript runs on every page only in projects with code enabled (allow_code); without it the file is only served as it is' });
    }
  }
  return warnings;
}

/** An address the site's policy lets a stylesheet load: a path of the site itself (relative, or `/…`). */
const OTHER_ORIGIN = /^(?:[a-z][a-z0-9+.-]*:|\/\/|\\\\)/i;
const shown = (url: string) => (url.length > 100 ? `${url.slice(0, 97)}…` : url);

/**
 * The `@import`s and `@font-face` sources of a stylesheet that the site's policy blocks, with where
 * they are. One pass over the text (comments and strings skipped), never backtracking: a tenant's
 * stylesheet of any size costs linear time.
 */
export function blockedLoads(css: string): Array<Omit<Problem, 'file'>> {
  const found: Array<Omit<Problem, 'file'>> = [];
  // Line and column of an offset, counted forward from the last one asked (offsets only grow).
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  const at = (offset: number) => {
    for (; counted < offset; counted++) {
      if (css.charCodeAt(counted) === 10) {
        line++;
        lineStart = counted + 1;
      }
    }
    return { line, column: offset - lineStart + 1 };
  };
  // Whether each open block is (inside) an @font-face rule, and whether the rule being read is one.
  const fontFace: boolean[] = [];
  let atFontFace = false;
  let i = 0;
  const n = css.length;

  /** The end of the string starting at `start` (its quote), past the closing quote. */
  const stringEnd = (start: number) => {
    const quote = css[start];
    let j = start + 1;
    while (j < n && css[j] !== quote && css[j] !== '\n') j += css[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, n);
  };
  /** The address of `url(` at `start` (its `u`) and the offset past its `)`. */
  const readUrl = (start: number): [string, number] => {
    let j = start + 4;
    while (j < n && /\s/.test(css[j])) j++;
    if (css[j] === '"' || css[j] === "'") {
      const end = stringEnd(j);
      const close = css.indexOf(')', end);
      return [css.slice(j + 1, end - 1), close < 0 ? n : close + 1];
    }
    const close = css.indexOf(')', j);
    return [css.slice(j, close < 0 ? n : close).trim(), close < 0 ? n : close + 1];
  };
  const isUrl = (j: number) => css.slice(j, j + 4).toLowerCase() === 'url(' && !/[\w-]/.test(css[j - 1] ?? '');

  while (i < n) {
    const c = css[i];
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      i = stringEnd(i);
    } else if (c === '{') {
      fontFace.push(fontFace.at(-1) === true || atFontFace);
      atFontFace = false;
      i++;
    } else if (c === '}' || c === ';') {
      if (c === '}') fontFace.pop();
      atFontFace = false;
      i++;
    } else if (c === '@' && css.slice(i + 1, i + 10).toLowerCase() === 'font-face') {
      atFontFace = true;
      i += 10;
    } else if (c === '@' && css.slice(i + 1, i + 7).toLowerCase() === 'import' && !/[\w-]/.test(css[i + 7] ?? '')) {
      let j = i + 7;
      while (j < n && /\s/.test(css[j])) j++;
      let url: string | undefined;
      let end = j;
      if (css[j] === '"' || css[j] === "'") {
        end = stringEnd(j);
        url = css.slice(j + 1, end - 1);
      } else if (isUrl(j)) [url, end] = readUrl(j);
      if (url !== undefined && OTHER_ORIGIN.test(url.trim())) {
        found.push({ ...at(i), message: `@import of "${shown(url.trim())}" is not loaded: the site's Content-Security-Policy lets stylesheets load only from the site itself; add that stylesheet to the repository and import it by its path` });
      }
      i = Math.max(end, i + 7);
    } else if ((c === 'u' || c === 'U') && isUrl(i)) {
      const [url, end] = readUrl(i);
      if (fontFace.at(-1) && OTHER_ORIGIN.test(url) && !/^data:/i.test(url)) {
        found.push({ ...at(i), message: `font "${shown(url)}" is not loaded: the site's Content-Security-Policy lets fonts load only from the site itself or from data: URLs; add the font file to the repository and name it by its path` });
      }
      i = end;
    } else i++;
  }
  return found;
}
