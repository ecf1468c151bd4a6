// `npm start`: builds the service role when dist/service is missing or stale, then runs the server.
import { ensureServiceBuilt } from '../src/api/build-service.ts';
import { main } from '../src/server.ts';

await ensureServiceBuilt();
await main();
