// The players and tools a docs page may embed in a frame, by origin: the one list that the served
// sites' Content-Security-Policy (frame-src) allows and that the content check holds an
// `<iframe src>` to. Every embed is rendered with EMBED_SANDBOX, whatever the author wrote.
export const EMBED_ORIGINS: readonly string[] = [
  'https://www.youtube-nocookie.com',
  'https://www.youtube.com',
  'https://player.vimeo.com',
  'https://www.loom.com',
  'https://fast.wistia.net',
  'https://www.figma.com',
  'https://embed.figma.com',
  'https://codesandbox.io',
  'https://stackblitz.com',
  'https://codepen.io',
  'https://demo.arcade.software',
  'https://app.supademo.com',
];

/**
 * What an embedded frame may do: run its player (scripts, its own origin's storage), go full
 * screen, open links in a new tab. Never navigate the docs page itself, submit forms to it or
 * open modal prompts over it.
 */
export const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox';

/** True when `src` is an https address on one of the embed origins. */
export function isEmbedUrl(src: unknown): boolean {
  if (typeof src !== 'string' || !URL.canParse(src)) return false;
  return EMBED_ORIGINS.includes(new URL(src).origin);
}
