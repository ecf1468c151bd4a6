// The JSON store (the default): one lowdb file in the data dir, held by one process. file.ts keeps
// the records and writes them; one module per entity implements its part of the Store.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { DamagedFileError, DurableJsonFile } from '../../durable-json-file.ts';
import { RecordShards } from '../../record-shards.ts';
import { newestGoodBackup, StoreBackups } from '../../store-backups.ts';
import type { Store } from '../store.ts';
import { jsonAccounts } from './accounts.ts';
import { jsonDeployments } from './deployments.ts';
import { emptyData, JsonStoreFile, parseStore, STORE_FILE, StoreDamagedError, type StoreData } from './file.ts';
import { jsonOrgs } from './orgs.ts';
import { jsonProjects } from './projects.ts';
import { jsonQueue } from './queue.ts';
import { jsonWebhooks } from './webhooks.ts';

export { readStoreRecords, STORE_FILE, StoreDamagedError } from './file.ts';

/** Creates and loads the embedded store in `dataDir`. Throws StoreDamagedError for an unreadable file. */
export async function openStore(dataDir: string): Promise<Store> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const shards = { projects: new RecordShards(), deployments: new RecordShards(), deliveries: new RecordShards() };
  // Projects and deployments are the big collections: serialised incrementally, as bytes that are
  // only copied into the file's buffer. The rest is small.
  const serialize = (data: StoreData) => {
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(data)) {
      parts.push(Buffer.from(`${parts.length === 0 ? '{' : ','}${JSON.stringify(name)}:`));
      const sharded = name === 'projects' || name === 'deployments' || name === 'deliveries' ? shards[name] : undefined;
      if (sharded) parts.push(...sharded.serializeBytes(value));
      else parts.push(Buffer.from(JSON.stringify(value)));
    }
    parts.push(Buffer.from(parts.length === 0 ? '{}' : '}'));
    return Buffer.concat(parts);
  };
  const file = new DurableJsonFile<StoreData>(path.join(dataDir, STORE_FILE), serialize);
  const text = await readFile(file.file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  let data = emptyData();
  try {
    if (text !== undefined) data = parseStore(file.file, text);
  } catch (err) {
    if (!(err instanceof DamagedFileError)) throw err;
    const backup = await newestGoodBackup(dataDir);
    throw new StoreDamagedError(file.file, err.message.slice(file.file.length + ' is damaged: '.length), backup && { file: backup.file, takenAt: backup.takenAt });
  }
  const backups = new StoreBackups(dataDir);
  await backups.opened(text);
  // The text last written whole: what the store goes back to after a failed write.
  let durable: string | Buffer | undefined = text;
  file.onWritten = (written) => {
    durable = written;
    backups.written(written);
  };
  const durableData = () => (durable === undefined ? emptyData() : parseStore(file.file, durable.toString('utf8')));
  const db = new Low<StoreData>(file, data);
  const store = new JsonStoreFile(db, file, shards.projects, shards.deployments, backups, durableData, shards.deliveries);
  return {
    ...jsonOrgs(store),
    ...jsonProjects(store),
    ...jsonDeployments(store),
    ...jsonAccounts(store),
    ...jsonWebhooks(store),
    ...jsonQueue(store),
    isHealthy: () => store.isHealthy(),
    close: () => store.close(),
  };
}
