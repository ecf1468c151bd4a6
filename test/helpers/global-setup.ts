// vitest globalSetup: build the service role once for every test file (skipped when fresh).
import { ensureServiceBuilt } from '../../src/api/build-service.ts';

export default async function setup(): Promise<void> {
  await ensureServiceBuilt(() => {});
}
