// Tab sets and prompts in the browser, on a page that renders Tabs, CodeGroup or Prompt in its own
// Markdown (their .astro files load this script); React code binds the same behaviour after
// hydration (react-components.ts).
import { enhanceTabSets } from './tab-sets.ts';

enhanceTabSets(document);
