/// <reference types="astro/client" />

// tsc has no loader for .astro files (Astro's own checker does); type them as components.
declare module '*.astro' {
  const Component: (props: Record<string, unknown>) => unknown;
  export default Component;
}

// The page being rendered, in scope in every compiled Astro component (components/mintlify/markup.ts
// renders JSX given as a prop with it); Astro's checker does not know it.
declare const $$result: unknown;

// The build in progress, served by the site integration (integration.ts); see build-settings.ts.
declare module 'virtual:folio/site-build' {
  export const site: import('./settings.ts').SiteBuild;
  /** How many times the preview has read the settings again (integration.ts); 0 in a build. */
  export const settingsVersion: number;
}
