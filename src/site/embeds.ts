// The video players a docs page may embed in a frame, by origin: the one list that the served
// sites' Content-Security-Policy (frame-src) allows, and that a content rule for embeds can check.
export const EMBED_ORIGINS: readonly string[] = [
  'https://www.youtube-nocookie.com',
  'https://www.youtube.com',
  'https://player.vimeo.com',
  'https://www.loom.com',
];
