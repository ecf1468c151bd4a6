// The content root of projects without a repository, shared through PostgreSQL (project-content.ts,
// migration 9; docs/decisions.md#content-written-through-the-api-on-several-nodes). The database
// holds each file (bytes and SHA-256) and a version per project; each node keeps a copy in its data
// dir, where the pages and site-files services and the builds read and write as they do without
// PostgreSQL, and remembers which version its copy is and what it holds.
//
// A change takes the project's version row FOR UPDATE (changes of a project take turns on every
// node), brings the copy up to date, runs, stores the files it touched and bumps the version in
// the same transaction: the answer is sent only after COMMIT. A pull compares versions (one
// indexed read) and, when they differ, fetches the files whose digest differs and removes those
// the database no longer has.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { isTempFileName, writeFileAtomic } from '../atomic-write.ts';
import { FolioError } from '../errors.ts';
import { updatedAt } from '../pages/catalog.ts';
import { makeFolders, removeEmptyFolders, removeFile } from '../pages/files.ts';
import { createLocks } from '../pages/locks.ts';
import { contentRootDir } from '../project-files.ts';
import type { ProjectContent } from '../project-content.ts';
import { createLanes } from './lanes.ts';

/** What a node's copy of a project's content root holds: its version and each file's digest. */
interface Copy {
  version: number;
  files: Map<string, string>;
}

type Db = pg.Pool | pg.PoolClient;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Whether `project_files` can hold a file at `rel` (its CHECK, migration 9): 1 to 1024 characters,
 * no empty, `.` or `..` segment, no backslash or control character. A content root the API wrote
 * holds only such paths; one synced from a repository (kept after a disconnect) may hold others.
 */
function storable(rel: string): boolean {
  const length = [...rel].length;
  // eslint-disable-next-line no-control-regex
  return length >= 1 && length <= 1024 && !/[\\\x00-\x1f\x7f]/.test(rel) && rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** The bytes and mtime of a regular file, or undefined when there is none (a link is never followed). */
async function readRegular(abs: string): Promise<{ bytes: Buffer; mtimeMs: number } | undefined> {
  let handle;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return undefined;
    throw err;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    return { bytes: await handle.readFile(), mtimeMs: stat.mtimeMs };
  } finally {
    await handle.close();
  }
}

/**
 * Every regular file under `root` (relative, `/`-separated), with its digest; links, temporary
 * files and files at a path the database cannot hold left out (they stay this node's own).
 */
async function scan(root: string, rel = '', found = new Map<string, string>()): Promise<Map<string, string>> {
  const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
    throw err;
  });
  for (const entry of entries) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await scan(root, child, found);
    else if (entry.isFile() && !isTempFileName(entry.name) && storable(child)) {
      const file = await readRegular(path.join(root, child));
      if (file) found.set(child, sha256(file.bytes));
    }
  }
  return found;
}

export function createPostgresContent(pool: pg.Pool, dataDir: string): ProjectContent {
  const copies = new Map<string, Copy>();
  // One pull or change of a project at a time on this node; concurrent pulls share the next one.
  const locks = createLocks();
  const pulls = createLanes<void>();

  const versionOf = async (db: Db, projectId: string): Promise<number | undefined> => {
    const { rows } = await db.query<{ version: number }>({ name: 'content_version', text: 'SELECT version FROM project_content WHERE project_id = $1', values: [projectId] });
    return rows[0]?.version;
  };

  /** Brings the copy to the database's version; the caller holds the project's lock. */
  const pullLocked = async (db: Db, projectId: string): Promise<void> => {
    const version = await versionOf(db, projectId);
    // Nothing stored yet: the copy is all there is (a project whose files predate this table, or none).
    if (version === undefined) return;
    const copy = copies.get(projectId);
    if (copy?.version === version) return;
    const root = contentRootDir(dataDir, projectId);
    // Without a record of the copy (this process has not seen the project, or a change failed
    // half-way), the disk is read to learn what it holds.
    const have = copy?.files ?? (await scan(root));
    const { rows } = await db.query<{ path: string; sha256: string }>('SELECT path, sha256 FROM project_files WHERE project_id = $1', [projectId]);
    const wanted = new Map(rows.map((r) => [r.path, r.sha256]));
    const missing = rows.filter((r) => have.get(r.path) !== r.sha256).map((r) => r.path);
    if (missing.length > 0) {
      const files = await db.query<{ path: string; content: Buffer; updated_at: string }>(
        'SELECT path, content, updated_at FROM project_files WHERE project_id = $1 AND path = ANY ($2)', [projectId, missing]);
      for (const file of files.rows) {
        await makeFolders(root, file.path);
        const abs = path.join(root, file.path);
        await writeFileAtomic(abs, file.content);
        // The same updated_at on every node (rounded to the millisecond as the API shows it): the page's, not this copy's.
        const at = new Date(file.updated_at);
        await utimes(abs, at, at);
      }
    }
    for (const rel of have.keys()) {
      if (wanted.has(rel)) continue;
      const abs = path.join(root, rel);
      if (await lstat(abs).catch(() => undefined)) await removeFile(abs);
      await removeEmptyFolders(root, rel);
    }
    copies.set(projectId, { version, files: wanted });
  };

  return {
    pull(projectId) {
      return pulls(projectId, 0, async (waiters) => {
        await locks.run(projectId, () => pullLocked(pool, projectId));
        return waiters.map(() => undefined);
      });
    },

    read(projectId, work) {
      return locks.run(projectId, async () => {
        await pullLocked(pool, projectId);
        return work();
      });
    },

    change(projectId, work) {
      return locks.run(projectId, async () => {
        const root = contentRootDir(dataDir, projectId);
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const created = await client.query("INSERT INTO project_content (project_id, version) VALUES ($1, nextval('project_content_versions')) ON CONFLICT DO NOTHING", [projectId])
            .catch((err: { code?: string }) => {
              if (err.code === '23503') throw new FolioError('not_found', `project ${projectId} not found`);
              throw err;
            });
          await client.query('SELECT version FROM project_content WHERE project_id = $1 FOR UPDATE', [projectId]);
          // The first change of a project stores every file its copy already has (written before
          // this table existed, or by a Folio without PostgreSQL); later ones only what they touched.
          const first = created.rowCount === 1;
          if (first) copies.set(projectId, { version: 0, files: await scan(root) });
          else await pullLocked(client, projectId);
          const touched = new Set<string>(first ? copies.get(projectId)!.files.keys() : []);
          const result = await work((abs) => {
            const rel = path.relative(root, abs).split(path.sep).join('/');
            if (rel.startsWith('../') || path.isAbsolute(rel)) throw new Error(`not in the content root: ${abs}`);
            // Only a file synced from a repository can have such a path (API paths are stricter).
            if (!storable(rel)) throw new FolioError('invalid_request', `"${rel}" cannot be changed through the API: its path is longer than 1024 characters or has a backslash or control character; rename it`);
            touched.add(rel);
          });
          const files = new Map(copies.get(projectId)?.files ?? (await scan(root)));
          for (const rel of touched) {
            const file = await readRegular(path.join(root, rel));
            if (!file) {
              await client.query('DELETE FROM project_files WHERE project_id = $1 AND path = $2', [projectId, rel]);
              files.delete(rel);
              continue;
            }
            const digest = sha256(file.bytes);
            await client.query(
              `INSERT INTO project_files (project_id, path, content, sha256, updated_at) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (project_id, path) DO UPDATE SET content = EXCLUDED.content, sha256 = EXCLUDED.sha256, updated_at = EXCLUDED.updated_at`,
              [projectId, rel, file.bytes, digest, updatedAt(file.mtimeMs)],
            );
            files.set(rel, digest);
          }
          // Nothing touched (a refused or empty change): other nodes' copies stay current.
          const { rows } = touched.size === 0
            ? await client.query<{ version: number }>('SELECT version FROM project_content WHERE project_id = $1', [projectId])
            : await client.query<{ version: number }>("UPDATE project_content SET version = nextval('project_content_versions') WHERE project_id = $1 RETURNING version", [projectId]);
          await client.query('COMMIT');
          copies.set(projectId, { version: rows[0]!.version, files });
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          // The copy may hold a change the database does not: the next pull reads the disk again.
          copies.delete(projectId);
          throw err;
        } finally {
          client.release();
        }
      });
    },

    reset(projectId) {
      return locks.run(projectId, async () => {
        // Waits for a change of the project in flight on any node (its row lock), then drops the
        // row and, through its foreign key, every stored file.
        await pool.query('DELETE FROM project_content WHERE project_id = $1', [projectId]);
        copies.delete(projectId);
      });
    },
  };
}
