// What src/server.ts, the composition root, hands every request through Astro's `locals`. The
// endpoints run only under it (the built bundle imports the same modules: docs/architecture.md#one-composition-root),
// so both are always set.
declare namespace App {
  interface Locals {
    folio: import('../service/folio.ts').Folio;
    /** The /v1 pipeline's dependencies: the services and the route table, made once at start. */
    api: import('./pipeline.ts').PipelineDeps;
    /** The request came to the console's host (src/console/). */
    console?: boolean;
    /** Console: the signed-in user of the session cookie (set by src/console/middleware.ts). */
    signedIn?: import('../service/accounts.ts').SignedIn;
    /** Console: the form of a state-changing request, read once by the middleware. */
    form?: FormData;
  }
}
