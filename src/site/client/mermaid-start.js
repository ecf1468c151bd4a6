// Draws the page's Mermaid diagrams (pre.mermaid, see src/site/markdown/rich-blocks.ts) once
// Mermaid's browser build, loaded just before this file, is there. Strict security: a diagram's
// text cannot add script or HTML to the page.
const dark = document.documentElement.dataset.theme === 'dark';
window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default' });
window.mermaid.run({ querySelector: 'pre.mermaid' });
