// vitest globalSetup: build the service role once for every test file (skipped when fresh), and
// start one throwaway PostgreSQL cluster whose URL test files get with inject('postgresUrl'), and
// one S3-compatible server (inject('s3Endpoint')).
import type { TestProject } from 'vitest/node';
import { ensureServiceBuilt } from '../../src/api/build-service.ts';
import { startPostgres } from './postgres.ts';
import { startS3 } from './s3.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    s3Endpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [postgres, s3] = await Promise.all([startPostgres(), startS3(), ensureServiceBuilt(() => {})]);
  project.provide('postgresUrl', postgres.url);
  project.provide('s3Endpoint', s3.endpoint);
  return async () => {
    await Promise.all([postgres.stop(), s3.stop()]);
  };
}
