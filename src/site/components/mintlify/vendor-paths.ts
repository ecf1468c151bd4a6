// Where a site serves the libraries of vendor.ts, in a module of its own: the markup functions
// (component-markup.ts) name them and also go into the browser bundle of React code, which must not
// carry vendor.ts's file copying.

/** The URL path prefix of the copied libraries. */
export const VENDOR_PATH = '/_folio/vendor';

export const KATEX_CSS = `${VENDOR_PATH}/katex/katex.min.css`;
export const MERMAID_JS = `${VENDOR_PATH}/mermaid/mermaid.min.js`;
