// Rotating backups of the store file, so a damaged store (a truncated file after a disk fault, a
// bad copy) is repaired by one command: `npm run admin -- store restore`.
//
// FOLIO_DATA_DIR/backups/folio-<time>.json is a copy of the store file as written at <time>
// (atomic-write.ts, mode 0600). One is taken at start when the file changed since the newest
// backup, after the first write, then after a write once BACKUP_EVERY_MS have passed or
// BACKUP_EVERY_WRITES writes were made since the last one, and at a clean stop. The newest
// KEPT_BACKUPS stay. A restore therefore loses at most the writes made after the backup it
// restores, which it names.
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { DamagedFileError, parseJsonFile } from './durable-json-file.ts';

export const BACKUP_DIR = 'backups';
export const KEPT_BACKUPS = 5;
export const BACKUP_EVERY_MS = 5 * 60_000;
export const BACKUP_EVERY_WRITES = 500;

const NAME = /^folio-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z)\.json$/;

export interface StoreBackup {
  file: string;
  takenAt: Date;
}

const backupDir = (dataDir: string) => path.join(dataDir, BACKUP_DIR);

/** `folio-2026-11-23T10-00-00.000Z.json`: colons are not portable in file names. */
function backupName(at: Date): string {
  return `folio-${at.toISOString().replaceAll(':', '-')}.json`;
}

/** The data dir's backups, newest first. */
export async function listBackups(dataDir: string): Promise<StoreBackup[]> {
  const names = await readdir(backupDir(dataDir)).catch(() => [] as string[]);
  const backups: StoreBackup[] = [];
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match) continue;
    const [date, time] = match[1].split('T');
    backups.push({ file: path.join(backupDir(dataDir), name), takenAt: new Date(`${date}T${time.replaceAll('-', ':')}`) });
  }
  return backups.sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

/** True when `text` is a whole store (what a good backup holds). */
export function isStoreText(file: string, text: string): boolean {
  try {
    const data = parseJsonFile<{ version?: unknown }>(file, text);
    return typeof data === 'object' && data !== null && data.version === 1;
  } catch (err) {
    if (err instanceof DamagedFileError) return false;
    throw err;
  }
}

/** The newest backup that holds a whole store, with its text. */
export async function newestGoodBackup(dataDir: string): Promise<(StoreBackup & { text: string }) | undefined> {
  for (const backup of await listBackups(dataDir)) {
    const text = await readFile(backup.file, 'utf8').catch(() => '');
    if (isStoreText(backup.file, text)) return { ...backup, text };
  }
  return undefined;
}

/** Writes one backup of `text` (taken at `at`) and removes the oldest beyond KEPT_BACKUPS. */
async function writeBackup(dataDir: string, text: string | Uint8Array, at: Date): Promise<void> {
  const dir = backupDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(path.join(dir, backupName(at)), text, { mode: 0o600 });
  for (const old of (await listBackups(dataDir)).slice(KEPT_BACKUPS)) await rm(old.file, { force: true });
}

/** Decides when the store's writes are backed up; backups run one at a time, in the background. */
export class StoreBackups {
  private dataDir: string;
  private lastAt = 0;
  private writesSince = 0;
  /** The text (or its UTF-8 bytes) of the newest write not yet backed up. */
  private pending: string | Uint8Array | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  /** At open: backs up the loaded store file unless the newest backup already holds it. */
  async opened(text: string | undefined): Promise<void> {
    const newest = (await listBackups(this.dataDir))[0];
    if (newest) this.lastAt = newest.takenAt.getTime();
    if (text === undefined) return;
    const same = newest && (await readFile(newest.file, 'utf8').catch(() => undefined)) === text;
    if (!same) await this.take(text);
  }

  /** After each store write: a backup when one is due. */
  written(text: string | Uint8Array): void {
    this.pending = text;
    this.writesSince++;
    if (this.lastAt === 0 || Date.now() - this.lastAt >= BACKUP_EVERY_MS || this.writesSince >= BACKUP_EVERY_WRITES) {
      void this.take(text);
    }
  }

  /** At a clean stop: the last write is backed up too. */
  async close(): Promise<void> {
    if (this.pending !== undefined) await this.take(this.pending);
    await this.chain;
  }

  private take(text: string | Uint8Array): Promise<void> {
    this.pending = undefined;
    this.writesSince = 0;
    // Never two backups in one millisecond: the name is the time.
    const at = new Date(Math.max(Date.now(), this.lastAt + 1));
    this.lastAt = at.getTime();
    this.chain = this.chain
      .then(() => writeBackup(this.dataDir, text, at))
      .catch((err) => console.error(`Folio: could not write a store backup (${(err as Error).message}); the store itself is unaffected`));
    return this.chain;
  }
}

export interface RestoreOutcome {
  backup: StoreBackup;
  /** When the replaced store file was last written (undefined when there was none). */
  lastWriteAt?: Date;
  /** Where the replaced (damaged) store file was kept, if there was one. */
  keptAs?: string;
}

/**
 * Replaces the store file by the newest good backup, keeping the old file beside it. Refuses when
 * the store file is readable, unless `force`. Run with the data dir locked.
 */
export async function restoreStore(dataDir: string, storeFile: string, force: boolean): Promise<RestoreOutcome> {
  const current = await readFile(storeFile, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (current !== undefined && isStoreText(storeFile, current) && !force) {
    throw new Error(`${storeFile} is readable: there is nothing to restore (add --force to replace it with the newest backup anyway)`);
  }
  const backup = await newestGoodBackup(dataDir);
  if (!backup) throw new Error(`no good backup in ${backupDir(dataDir)}: the store cannot be restored`);
  const outcome: RestoreOutcome = { backup: { file: backup.file, takenAt: backup.takenAt } };
  if (current !== undefined) {
    outcome.lastWriteAt = (await stat(storeFile)).mtime;
    outcome.keptAs = `${storeFile}.damaged-${new Date().toISOString().replaceAll(':', '-')}`;
    await rename(storeFile, outcome.keptAs);
  }
  await writeFileAtomic(storeFile, backup.text, { mode: 0o600 });
  return outcome;
}
