// What src/server.ts hands every request through Astro's `locals`.
declare namespace App {
  interface Locals {
    folio: import('../service/folio.ts').Folio;
    /** Path of src/api/openapi.json, served at GET /v1/openapi.json. */
    openapiFile: string;
  }
}
