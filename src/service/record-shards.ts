// Incremental JSON for a large map of records. The store rewrites its whole file on every group
// commit; with 10,000 projects a full JSON.stringify blocks the event loop for ~10 ms per write,
// and encoding the whole text as UTF-8 costs as much again. Records are kept in shards of up to
// SHARD_SIZE ids in insertion order, each shard's JSON is kept as UTF-8 bytes, and a change
// re-serialises only its shard (new records all land in the newest one).

const SHARD_SIZE = 500;

interface Shard {
  ids: Set<string>;
  /** The shard's records as `"id":{…},"id":{…}`, in UTF-8; undefined once one changed. */
  bytes: Buffer | undefined;
}

const OPEN = Buffer.from('{');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');

export class RecordShards {
  private shards: Shard[] = [];
  private shardOf = new Map<string, Shard>();

  /** Forgets every record (the map is being reloaded). */
  clear(): void {
    this.shards = [];
    this.shardOf.clear();
  }

  /** A record was added to the map. */
  added(id: string): void {
    let last = this.shards[this.shards.length - 1];
    if (!last || last.ids.size >= SHARD_SIZE) this.shards.push((last = { ids: new Set(), bytes: undefined }));
    last.ids.add(id);
    last.bytes = undefined;
    this.shardOf.set(id, last);
  }

  /** A record was changed in place. */
  changed(id: string): void {
    const shard = this.shardOf.get(id);
    if (shard) shard.bytes = undefined;
  }

  /** A record was removed from the map. */
  removed(id: string): void {
    const shard = this.shardOf.get(id);
    if (!shard) return;
    shard.ids.delete(id);
    shard.bytes = undefined;
    this.shardOf.delete(id);
  }

  /** The UTF-8 JSON of `records` in pieces to write one after the other: equal to JSON.stringify(records) up to key order. */
  serializeBytes(records: Record<string, unknown>): Buffer[] {
    const parts: Buffer[] = [OPEN];
    for (const shard of this.shards) {
      if (shard.ids.size === 0) continue;
      if (parts.length > 1) parts.push(COMMA);
      shard.bytes ??= Buffer.from([...shard.ids].map((id) => `${JSON.stringify(id)}:${JSON.stringify(records[id])}`).join(','));
      parts.push(shard.bytes);
    }
    parts.push(CLOSE);
    return parts;
  }

  /** The JSON of `records` as text. */
  serialize(records: Record<string, unknown>): string {
    return Buffer.concat(this.serializeBytes(records)).toString('utf8');
  }
}
