// The components map given to every page's Content: the built-in components and Snippet.
import Snippet from './Snippet.astro';
import { builtInComponents } from './built-in.ts';

export const folioComponents = { ...builtInComponents, Snippet };
