// vitest globalSetup: build the service role once for every test file (skipped when fresh), and
// start one throwaway PostgreSQL cluster whose URL test files get with inject('postgresUrl').
import type { TestProject } from 'vitest/node';
import { ensureServiceBuilt } from '../../src/api/build-service.ts';
import { startPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [postgres] = await Promise.all([startPostgres(), ensureServiceBuilt(() => {})]);
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
