// TeX to HTML with KaTeX, at build time. In the reader's browser this module is a stub (the code
// build's `load` hook, src/site/code/integration.ts): React keeps the formula the server wrote
// when it hydrates (react-components.ts), so KaTeX is never shipped.
import katex from 'katex';

/** The formula as KaTeX's HTML and MathML; one it cannot read is shown as its source, marked in red. */
export function latexHtml(source: string, display: boolean): string {
  return katex.renderToString(source, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
}
