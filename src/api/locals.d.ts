// What src/server.ts, the composition root, hands every request through Astro's `locals`. The
// endpoints run only under it (the built bundle imports the same modules: docs/architecture.md#one-composition-root),
// so both are always set.
declare namespace App {
  interface Locals {
    folio: import('../service/folio.ts').Folio;
    /** The /v1 pipeline's dependencies: the services and the route table, made once at start. */
    api: import('./pipeline.ts').PipelineDeps;
  }
}
