// Incremental JSON for a large map of records. The store rewrites its whole file on every group
// commit; with 10,000 projects a full JSON.stringify blocks the event loop for ~10 ms per write.
// Records are kept in shards of up to SHARD_SIZE ids in insertion order, each shard's JSON is
// cached, and a change re-serialises only its shard (new records all land in the newest one).

const SHARD_SIZE = 500;

interface Shard {
  ids: Set<string>;
  json: string | undefined;
}

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
    if (!last || last.ids.size >= SHARD_SIZE) this.shards.push((last = { ids: new Set(), json: undefined }));
    last.ids.add(id);
    last.json = undefined;
    this.shardOf.set(id, last);
  }

  /** A record was changed in place. */
  changed(id: string): void {
    const shard = this.shardOf.get(id);
    if (shard) shard.json = undefined;
  }

  /** A record was removed from the map. */
  removed(id: string): void {
    const shard = this.shardOf.get(id);
    if (!shard) return;
    shard.ids.delete(id);
    shard.json = undefined;
    this.shardOf.delete(id);
  }

  /** The JSON of `records`, equal to JSON.stringify(records) up to key order. */
  serialize(records: Record<string, unknown>): string {
    const parts: string[] = [];
    for (const shard of this.shards) {
      if (shard.ids.size === 0) continue;
      shard.json ??= [...shard.ids].map((id) => `${JSON.stringify(id)}:${JSON.stringify(records[id])}`).join(',');
      parts.push(shard.json);
    }
    return `{${parts.join(',')}}`;
  }
}
