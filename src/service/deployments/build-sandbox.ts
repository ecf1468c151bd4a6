// The service's build sandbox settings (FOLIO_SANDBOX, FOLIO_BWRAP_PATH, FOLIO_BUILD_MEMORY_MB) and
// the check at start that tells the operator, loudly, when builds would run without it.
import type { BuildSandbox } from '../../builder/sandbox.ts';
import { buildSandboxOf } from '../../builder/build-limits.ts';
import { sandboxAvailable } from '../../builder/sandbox.ts';
import type { Config } from '../config.ts';

export function buildSandbox(config: Config): BuildSandbox {
  return buildSandboxOf(config);
}

/** Probes the sandbox once (builds reuse the answer) and warns when it cannot be used. */
export async function checkSandboxAtStart(config: Config, warn: (text: string) => void = console.warn): Promise<void> {
  if (config.sandbox === 'off') {
    warn('WARNING: FOLIO_SANDBOX=off: site builds run without the bubblewrap sandbox, with the server\'s rights over this machine. Only do this when every project\'s content is trusted.');
    return;
  }
  const probe = await sandboxAvailable({ bwrapPath: config.bwrapPath });
  if (probe.ok) return;
  const consequence =
    config.sandbox === 'required'
      ? 'FOLIO_SANDBOX=required: every deployment will fail with sandbox_unavailable until it works.'
      : 'FOLIO_SANDBOX=auto: site builds run WITHOUT the sandbox, with the server\'s rights over this machine. Install Debian\'s bubblewrap, or set FOLIO_SANDBOX=required to refuse to build without it.';
  warn(`WARNING: the build sandbox cannot run here (${probe.reason}). ${consequence}`);
}
