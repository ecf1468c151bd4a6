import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Builds the service role once for all service tests (skipped when dist/service is fresh).
    globalSetup: ['test/helpers/global-setup.ts'],
    // Fails a test that received an API answer the OpenAPI document does not describe.
    setupFiles: ['test/helpers/contract-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
