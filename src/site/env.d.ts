/// <reference types="astro/client" />

// tsc has no loader for .astro files (Astro's own checker does); type them as components.
declare module '*.astro' {
  const Component: (props: Record<string, unknown>) => unknown;
  export default Component;
}
