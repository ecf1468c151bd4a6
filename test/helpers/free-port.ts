// A TCP port on 127.0.0.1 that nothing listens on right now, for a server a test starts itself
// (PostgreSQL, Redis). The port is freed before the caller binds it; the servers that use this
// bind it at once, and a clash would show as a start error, not a wrong result.
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
