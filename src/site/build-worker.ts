// The child-process entry of a site build: Astro's programmatic build() of one content root.
// Inputs come only from FOLIO_* variables (see build.ts, which scrubs the rest and indexes the
// output for search afterwards). Kept small so a warm worker running many builds can reuse it.
// Usage: the parent spawns it, checks the content meanwhile, then writes "go\n" to its stdin.
import path from 'node:path';
import { build } from 'astro';
import { projectDir, siteSettings } from './settings.ts';

/** Builds the site described by the FOLIO_* environment (build.ts then indexes it for search). */
export async function runSiteBuild(): Promise<void> {
  const settings = siteSettings();
  await build({
    root: settings.buildRoot,
    // Astro joins configFile onto root, so it must be relative to this build's root.
    configFile: path.relative(settings.buildRoot, path.join(projectDir, 'astro.config.mjs')),
    mode: 'production',
    force: true,
  });
}

/** Resolves true when the parent writes "go" on stdin (the content passed its checks), false on EOF. */
function waitForGo(): Promise<boolean> {
  return new Promise((resolve) => {
    let input = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      input += chunk;
      if (input.includes('\n')) resolve(input.trim() === 'go');
    });
    process.stdin.on('end', () => resolve(false));
  });
}

if (import.meta.main) {
  // Started while the parent still checks the content, so loading Astro overlaps the check;
  // nothing of the content root is read before the parent says go.
  if (!(await waitForGo())) process.exit(3);
  try {
    await runSiteBuild();
  } catch (error) {
    const e = error as { message?: string; loc?: { file?: string; line?: number; column?: number }; id?: string };
    const where = e.loc?.file ? `${e.loc.file}:${e.loc.line ?? 1}:${e.loc.column ?? 1}: ` : '';
    // Every line marked, so the parent keeps all of a multi-line message (an OpenAPI file's problems).
    for (const line of `${where}${e.message ?? String(error)}`.split('\n')) console.error(`[folio] error: ${line}`);
    process.exitCode = 1;
  }
}
