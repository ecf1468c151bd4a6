// The local admin channel: a Unix socket inside the data dir (mode 0600) through which the admin
// CLI hands commands to the running server, so the server's in-memory store stays the only writer.
import { chmod, unlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { AdminCommand, AdminResult } from './admin-commands.ts';
import { FolioError, isFolioError, type ErrorCode } from './errors.ts';

export const ADMIN_SOCKET = 'admin.sock';

/** `code` is null for an unexpected server error. */
type Reply = { ok: true; result: AdminResult } | { ok: false; error: { code: ErrorCode | null; message: string } };

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, ADMIN_SOCKET);
}

/** Serves admin commands on the data dir's socket; resolves to a function that stops serving. */
export async function serveAdminChannel(
  dataDir: string,
  execute: (command: AdminCommand) => Promise<AdminResult>,
): Promise<() => Promise<void>> {
  const socketPath = adminSocketPath(dataDir);
  // We hold the data dir lock, so a socket file left here belongs to a dead server.
  await unlink(socketPath).catch(() => {});
  const server = net.createServer((socket) => {
    let input = '';
    let answered = false;
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', async (chunk: string) => {
      input += chunk;
      if (answered || !input.includes('\n')) return;
      answered = true;
      let reply: Reply;
      try {
        reply = { ok: true, result: await execute(JSON.parse(input) as AdminCommand) };
      } catch (err) {
        reply = isFolioError(err)
          ? { ok: false, error: { code: err.code, message: err.message } }
          : { ok: false, error: { code: null, message: `the server could not run the command: ${String(err)}` } };
      }
      socket.end(JSON.stringify(reply) + '\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  await chmod(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
    });
}

/** Sends one command to the server holding the data dir. Connection errors are thrown as is. */
export function sendAdminCommand(dataDir: string, command: AdminCommand): Promise<AdminResult> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(adminSocketPath(dataDir));
    let output = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify(command) + '\n'));
    socket.on('data', (chunk: string) => (output += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        const reply = JSON.parse(output) as Reply;
        if (reply.ok) resolve(reply.result);
        // The server's FolioError, rebuilt on this side of the socket.
        else if (reply.error.code) reject(new FolioError(reply.error.code, reply.error.message));
        else reject(new Error(reply.error.message));
      } catch {
        reject(new Error('the server closed the admin channel without an answer'));
      }
    });
  });
}
