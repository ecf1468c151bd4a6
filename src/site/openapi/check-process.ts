// The OpenAPI check of check.ts in a process of its own: `node check-process.ts ROOT`, the page
// files (JSON list) on stdin, the result (JSON) on stdout.
import { checkOpenApi } from './check.ts';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const pages = JSON.parse(Buffer.concat(chunks).toString('utf8') || '[]') as string[];
process.stdout.write(JSON.stringify(await checkOpenApi(process.argv[2], pages)));
