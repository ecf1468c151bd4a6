// The short soak (issue 17): `npm run soak` with 5 kills. A real server under mixed load is killed
// with SIGKILL at random moments and restarted; after each restart every acknowledged write is
// there, live sites are served, crash leftovers are gone and the store is readable. The full run
// (`npm run soak`, 50 kills) is too long for the suite.
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, runNode } from '../helpers/server.ts';

it('survives 5 kill -9s under load with every check passing', async () => {
  const result = await runNode(path.join(ROOT, 'scripts/soak.ts'), ['--iterations', '5'], {});
  expect(result.stdout, result.stdout + result.stderr).toMatch(/soak: 5\/5 iterations survived .* 0 violation\(s\)/);
  expect(result.stdout).toMatch(/[1-9]\d* acknowledged writes; [1-9]\d* live sites/);
  expect(result.code).toBe(0);
}, 180_000);
