// The stylesheets a page links besides the layout's (docs/decisions.md#byte-ranges-and-css-per-page):
// Astro bundles the CSS its import graph finds per route, and every docs page is the one route
// routes/page.astro, whose pages render components through the components map or as markup
// (components/mintlify/html-components.ts) Astro's graph cannot see per page. So the component and
// OpenAPI styles are their own files (Vite emits each `?url` import as one hashed asset, minified),
// and a page links them only when its tree calls a component or it shows an operation.
import componentsSheet from './components/mintlify/components.css?url';
import openapiSheet from './openapi/openapi.css?url';

export interface PageStyleNeeds {
  /** The page's content calls a component; true when unknown (an MDX module, whose tree is code). */
  components: boolean;
  /** The page shows an OpenAPI operation. */
  operation: boolean;
}

/** The hrefs to link, in cascade order (after the layout's, before the author's custom CSS). */
export function pageStylesheets(needs: PageStyleNeeds): string[] {
  return [...(needs.components ? [componentsSheet] : []), ...(needs.operation ? [openapiSheet] : [])];
}
