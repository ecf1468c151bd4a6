// The Markdown features Sätteri compiles pages and snippets with. The build passes exactly these to
// its processor (astro-config.ts) and the content check parses with exactly these, so both read the
// same tree: a construct one of them reads differently (a GFM table cell, a footnote) would
// otherwise be a way past the check.
import type { Features } from 'satteri';

export const MARKDOWN_FEATURES = {
  // Astro's defaults (markdown.gfm and markdown.smartypants), written out so they cannot drift.
  gfm: true,
  smartPunctuation: true,
  // $…$ and $$…$$, as Mintlify pages write math (typeset by markdown/rich-blocks.ts). Its content is
  // math, never an MDX expression.
  math: true,
  // `## Setup {#setup}`: Mintlify's custom heading anchors. The parser reads any `{ … }` attribute
  // list after a heading; the content check allows only `#id` (check-content.ts).
  headingAttributes: true,
} as const satisfies Features;
