// The S3-compatible server the tests use (test/helpers/s3.ts starts it as a child process):
// s3rver, an implementation of the S3 API over a folder, on a free port; prints the port, stops on
// SIGTERM. Run with --openssl-legacy-provider: its ListObjectsV2 continuation tokens use DES.
// Signatures are not checked: s3rver signs bucket-level paths without the trailing slash the AWS
// SDK signs (`/bucket/` vs `/bucket`), so every bucket-level request would be refused.
import S3rver from '@20minutes/s3rver';

const directory = process.argv[2];
if (!directory) throw new Error('usage: s3-server.ts DIRECTORY');
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, allowMismatchedSignatures: true });
const { port } = await server.run();
process.stdout.write(`listening on ${port}\n`);
process.on('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
