import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/helpers/slowest-first.ts';

export default defineConfig({
  test: {
    // Pure modules' tests may sit beside them (src/…/x.test.ts).
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    // Two test files at a time even on a 2-core machine (vitest's default there is one): most of a
    // file's time is spent waiting on child processes (servers, builds, git, Chromium), so two
    // overlap well and keep the suite within CI's 20 minutes.
    maxWorkers: 2,
    // The slowest files first, also on a fresh clone (test/helpers/slowest-first.ts).
    sequence: { sequencer: SlowestFirst },
    // Builds the service role once for all service tests (skipped when dist/service is fresh).
    globalSetup: ['test/helpers/global-setup.ts'],
    // Fails a test that received an API answer the OpenAPI document does not describe.
    setupFiles: ['test/helpers/contract-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
