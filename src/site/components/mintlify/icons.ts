// Icons by name, as Mintlify pages name them: Font Awesome (free solid, regular and brands) and
// Lucide, inlined as SVG at build time from the pinned npm packages, so neither building nor
// reading a page touches the network. An icon may also be an image URL or path. An unknown name is
// a warning in the build log and a neutral placeholder, never a failed build
// (docs/decisions.md#mintlify-components).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { iconLibraryOf, type IconLibrary } from '../catalog.ts';

const require = createRequire(import.meta.url);

/** Font Awesome's free styles, by Mintlify's `iconType`; Pro-only styles fall back to solid. */
const FA_PACKAGES = {
  solid: '@fortawesome/free-solid-svg-icons',
  regular: '@fortawesome/free-regular-svg-icons',
  brands: '@fortawesome/free-brands-svg-icons',
} as const;
type FaStyle = keyof typeof FA_PACKAGES;

/** A name as Mintlify accepts it: lower-case words joined by dashes (also the only safe file name). */
const ICON_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const cache = new Map<string, string | undefined>();
let lucideDir: string | undefined;

/** True when `icon` is an image to show as <img>, not an icon name. */
export function isIconUrl(icon: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:/i.test(icon) && !/^https?:/i.test(icon)) return false; // no other scheme is an image
  return /^(?:https?:)?\/\//i.test(icon) || icon.startsWith('/') || icon.startsWith('./') || /\.(?:svg|png|jpe?g|gif|webp|avif|ico)(?:[?#].*)?$/i.test(icon);
}

function fontAwesome(name: string, style: FaStyle): string | undefined {
  const exportName = `fa${name.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`;
  let definition: { icon: [number, number, unknown, unknown, string | string[]] } | undefined;
  try {
    definition = (require(`${FA_PACKAGES[style]}/${exportName}`) as { definition?: typeof definition }).definition;
  } catch {
    return undefined;
  }
  if (!definition) return undefined;
  const [width, height, , , data] = definition.icon;
  const paths = (Array.isArray(data) ? data : [data]).map((d, i) => `<path${Array.isArray(data) && i === 0 ? ' opacity="0.4"' : ''} d="${d}"/>`).join('');
  return `<svg class="mint-icon mint-icon-fa" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" fill="currentColor" aria-hidden="true" focusable="false">${paths}</svg>`;
}

function lucide(name: string): string | undefined {
  lucideDir ??= path.join(path.dirname(require.resolve('lucide-static/package.json')), 'icons');
  let svg: string;
  try {
    svg = fs.readFileSync(path.join(lucideDir, `${name}.svg`), 'utf8');
  } catch {
    return undefined;
  }
  const inner = svg.slice(svg.indexOf('>', svg.indexOf('<svg')) + 1, svg.lastIndexOf('</svg>')).replace(/\s*\n\s*/g, '');
  return `<svg class="mint-icon mint-icon-lucide" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${inner}</svg>`;
}

/** The neutral placeholder of an unknown icon: a small circle. */
export const FALLBACK_ICON = '<svg class="mint-icon mint-icon-unknown" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="8"/></svg>';

/**
 * The SVG of a named icon: Font Awesome in the style `iconType` asks for (solid by default; a name
 * only in brands, such as github, is found there), then Lucide. With `iconLibrary` (Mintlify's
 * prop: fontawesome or lucide) only that library, as the same name can be a different picture in
 * each (house, bell). Undefined when no library searched has it.
 */
export function namedIconSvg(icon: string, iconType?: string, iconLibrary?: string): string | undefined {
  const name = icon.trim().toLowerCase().replace(/^fa-/, '');
  if (!ICON_NAME.test(name)) return undefined;
  const library = iconLibraryOf(iconLibrary);
  const key = `${name} ${iconType ?? ''} ${library ?? ''}`;
  if (cache.has(key)) return cache.get(key);
  const wanted: FaStyle = iconType === 'regular' || iconType === 'brands' ? iconType : 'solid';
  const order: FaStyle[] = [wanted, ...(['solid', 'brands', 'regular'] as const).filter((s) => s !== wanted)];
  let svg: string | undefined;
  if (library !== 'lucide') for (const style of order) if ((svg = fontAwesome(name, style))) break;
  if (library !== 'fontawesome') svg ??= lucide(name);
  cache.set(key, svg);
  return svg;
}

const LIBRARY_NAMES: Record<IconLibrary, string> = { fontawesome: 'Font Awesome', lucide: 'Lucide' };

/**
 * The markup of an icon prop given as a string: an <img> for a URL or path, the inlined SVG of a
 * name, or the placeholder (with a warning naming the page) for a name no library has.
 */
export function iconHtml(icon: string, iconType: string | undefined, page: string, iconLibrary?: string): string {
  if (isIconUrl(icon)) return `<img class="mint-icon mint-icon-img" src="${escapeAttribute(icon)}" alt="" />`;
  const svg = namedIconSvg(icon, iconType, iconLibrary);
  if (svg) return svg;
  const library = iconLibraryOf(iconLibrary);
  console.warn(`[folio] warning: page ${page}: unknown icon "${icon}" (not a ${library ? `${LIBRARY_NAMES[library]} name, as iconLibrary="${library}" asks` : 'Font Awesome or Lucide name'}); shown as a plain circle`);
  return FALLBACK_ICON;
}

export function escapeAttribute(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
