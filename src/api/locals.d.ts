// What src/server.ts hands every request through Astro's `locals`.
declare namespace App {
  interface Locals {
    folio: import('../service/folio.ts').Folio;
    /** Path of src/api/openapi.json, served at GET /v1/openapi.json. */
    openapiFile: string;
    /** The request came to the console's host (src/console/). */
    console?: boolean;
    /** Console: the signed-in user of the session cookie (set by src/console/middleware.ts). */
    signedIn?: import('../service/accounts.ts').SignedIn;
    /** Console: the form of a state-changing request, read once by the middleware. */
    form?: FormData;
  }
}
