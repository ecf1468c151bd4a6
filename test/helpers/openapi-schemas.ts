// Validates API answers against a schema of src/api/openapi.json (components/schemas/NAME).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

/** A checker for answers: `check('Deployment', body)` fails the test with ajv's errors. */
export function openapiSchemaChecker(): (schema: string, value: unknown) => void {
  const doc = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../src/api/openapi.json'), 'utf8'));
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema(doc, 'folio');
  return (schema, value) => {
    const valid = ajv.validate({ $ref: `folio#/components/schemas/${schema}` }, value);
    expect(valid ? [] : ajv.errors, schema).toEqual([]);
  };
}
