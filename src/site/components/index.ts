// The components map given to every page's Content: authors use these tags without imports.
import ApiMethod from './ApiMethod.astro';
import Callout from './Callout.astro';
import Snippet from './Snippet.astro';

export const folioComponents = { ApiMethod, Callout, Snippet };
