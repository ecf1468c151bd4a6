// vitest setupFile: a test that met an answer src/api/openapi.json does not describe fails, even
// when it caught the error the request helper threw (see api-contract.ts).
import { afterAll, afterEach } from 'vitest';
import { takeViolations } from './api-contract.ts';

function failOnViolations(): void {
  const violations = takeViolations();
  if (violations.length) throw new Error(`undocumented API answers:\n\n${violations.join('\n\n')}`);
}

afterEach(failOnViolations);
afterAll(failOnViolations);
