// The `folio` command for authors (content/authoring/cli.mdx), started by bin/folio on Folio's
// own Node from the docs repository the author stands in: that folder is the content root.
import { parseArgs, portFlag, usage, UsageError, type Invocation } from '../src/cli/args.ts';
import { checkRepository, formatCheck } from '../src/cli/check.ts';
import { ApiError, deploy } from '../src/cli/deploy.ts';
import { dev } from '../src/cli/dev.ts';
import { findBrokenLinks } from '../src/site/broken-links.ts';
import { formatProblem } from '../src/site/content-check/check-content.ts';

const root = process.cwd();

async function run(invocation: Invocation): Promise<number> {
  const { command, flags } = invocation;
  if (invocation.help || !command) {
    console.log(usage(command));
    return 0;
  }
  switch (command) {
    case 'check': {
      const outcome = await checkRepository(root, flags['allow-code'] === true);
      console.log(flags.json ? JSON.stringify({ pages: outcome.pages, errors: outcome.errors, warnings: outcome.warnings, results: outcome.results }, null, 2) : formatCheck(outcome));
      return outcome.errors ? 1 : 0;
    }
    case 'broken-links': {
      const report = await findBrokenLinks(root, { checkAnchors: flags['check-anchors'] === true, checkExternal: flags['check-external'] === true });
      for (const link of report.broken) console.log(formatProblem(link));
      console.log(`${report.pages} pages, ${report.checked} links checked, ${report.broken.length} broken`);
      return report.broken.length ? 1 : 0;
    }
    case 'deploy': {
      const project = typeof flags.project === 'string' ? flags.project : undefined;
      return deploy({ url: process.env.FOLIO_URL, key: process.env.FOLIO_API_KEY, project, wait: flags.wait === true, write: (text) => process.stdout.write(text) });
    }
    case 'dev':
      return dev({ root, port: portFlag(flags.port), allowCode: flags['allow-code'] === true, write: (text) => process.stdout.write(text) });
    default:
      throw new UsageError(`folio ${command} is not available yet`);
  }
}

try {
  process.exitCode = await run(parseArgs(process.argv.slice(2)));
} catch (error) {
  if (!(error instanceof UsageError || error instanceof ApiError)) throw error;
  console.error(`folio: ${error.message}`);
  // 2 for a command written wrong (flags, settings), 1 for a refusal of the server.
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
