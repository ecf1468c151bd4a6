// The shades of a site's brand colour that stay readable (docs/decisions.md#readable-brand-colours).
// docs.json `colors` name the brand; the theme uses two tokens made from it, per mode:
// - `--docs-accent`: the configured colour as it is, where contrast does not matter (borders,
//   icons, the tint behind active items, decorations);
// - `--docs-primary`: the shade used for text, links, active states and as the fill behind labels
//   in the page's background colour (the navbar button, the banner): the configured colour,
//   darkened (light mode) or lightened (dark mode) by mixing in black or white, which keeps its hue,
//   only as far as needed to reach WCAG AA's 4.5:1 against the page background, the accent's tint
//   and its own.

export type Rgb = [number, number, number];

/** WCAG AA's contrast for body text. */
export const MIN_CONTRAST = 4.5;

/** The theme's backgrounds (theme.css), when docs.json `background.color` does not set one. */
export const DEFAULT_BACKGROUNDS = { light: '#ffffff', dark: '#0d1117' } as const;

const NUMBER = String.raw`(-?\d*\.?\d+)(%?)`;
const FUNCTION = new RegExp(String.raw`^(rgba?|hsla?)\(\s*${NUMBER}(?:deg)?\s*[,\s]\s*${NUMBER}\s*[,\s]\s*${NUMBER}\s*(?:[,/]\s*${NUMBER}\s*)?\)$`, 'i');

/**
 * The sRGB channels (0–255) of a colour written as hex (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`),
 * `rgb()`/`rgba()` or `hsl()`/`hsla()`; undefined for other forms (names, other colour spaces),
 * which get a fixed mix instead (readableShade). Alpha is ignored: a brand colour is opaque.
 */
export function parseColor(text: string): Rgb | undefined {
  const value = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(value)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
  }
  const match = FUNCTION.exec(value);
  if (!match) return undefined;
  const [, kind, a, ap, b, bp, c, cp] = match;
  const channel = (n: string, percent: string) => clamp(percent ? (Number(n) * 255) / 100 : Number(n), 0, 255);
  if (kind!.startsWith('rgb')) return [channel(a!, ap!), channel(b!, bp!), channel(c!, cp!)];
  return hslToRgb(((Number(a) % 360) + 360) % 360, clamp(Number(b), 0, 100) / 100, clamp(Number(c), 0, 100) / 100);
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

function hslToRgb(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => 255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1)));
  return [f(0), f(8), f(4)];
}

/** WCAG 2's relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2's contrast ratio of two colours (1 to 21). */
export function contrast(a: Rgb, b: Rgb): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** `share` of `a` mixed into `b` in sRGB, as CSS `color-mix(in srgb, a share, b)` does. */
export function mix(a: Rgb, b: Rgb, share: number): Rgb {
  return [0, 1, 2].map((i) => a[i]! * share + b[i]! * (1 - share)) as Rgb;
}

export function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(clamp(c, 0, 255)).toString(16).padStart(2, '0')).join('')}`;
}

/** The tints of the brand theme.css lays under text (--docs-accent-bg: 10%; the method badges: 14%), and a margin. */
const TINT_SHARE = 0.16;

/**
 * The shade of `color` (a CSS colour) readable as text on `background` (the page's, in one mode)
 * and on the tint of `accent` (the configured colour) and of the shade itself over it: `color`
 * itself when it already is, else it mixed with black on a light background (white on a dark one)
 * in the smallest share that reaches MIN_CONTRAST. A colour this cannot read gets a fixed mix
 * that reaches it for any colour but the palest (a CSS expression the browser resolves).
 */
export function readableShade(color: string, background: string, accent = color): string {
  const rgb = parseColor(color);
  const bg = parseColor(background) ?? parseColor(DEFAULT_BACKGROUNDS.light)!;
  const towards: Rgb = luminance(bg) > 0.18 ? [0, 0, 0] : [255, 255, 255];
  if (!rgb) return `color-mix(in srgb, ${color} 35%, ${toHex(towards)})`;
  const accentRgb = parseColor(accent) ?? rgb;
  const readable = (shade: Rgb) =>
    Math.min(contrast(shade, bg), contrast(shade, mix(accentRgb, bg, TINT_SHARE)), contrast(shade, mix(shade, bg, TINT_SHARE))) >= MIN_CONTRAST;
  if (readable(rgb)) return color;
  // Contrast grows with the share of black (white) mixed in: the smallest share that reads, to 1/1000.
  let [low, high] = [0, 1];
  while (high - low > 0.001) {
    const middle = (low + high) / 2;
    if (readable(mix(towards, rgb, middle))) high = middle;
    else low = middle;
  }
  return toHex(mix(towards, rgb, high));
}
