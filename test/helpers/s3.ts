// A throwaway S3-compatible server for the tests (s3-server.ts, a child process over a temp
// folder), started once by the global setup; each test file makes its own bucket
// (`createTestBucket`), so files running in parallel never see each other's objects.
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./s3-server.ts', import.meta.url));

/** s3rver accepts any credentials (the tests' server checks no signature). */
export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

export interface TestS3 {
  /** The server's address (`http://127.0.0.1:PORT`). */
  endpoint: string;
  stop(): Promise<void>;
}

export async function startS3(): Promise<TestS3> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-s3-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '--no-warnings', SCRIPT, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => reject(new Error(`the S3 server exited before listening:\n${output}`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A new empty bucket on the server; returns its name. */
export async function createTestBucket(endpoint: string): Promise<string> {
  const name = `folio-${crypto.randomUUID().slice(0, 18)}`;
  const client = new S3Client({
    endpoint,
    region: S3_CREDENTIALS.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: S3_CREDENTIALS.AWS_SECRET_ACCESS_KEY },
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  } finally {
    client.destroy();
  }
  return name;
}
