// The answers that depend on their query and the data alone (transitions, zone info,
// conversions, name lists, the /api index), kept encoded with their ETag, per normalised
// query, within a budget of BYTES (ANSWER_CACHE_BYTES), least recently used first out.
//
// The ETag is derived from the normalised query and the data version, never from the body,
// so a revalidation (If-None-Match) is answered 304 before any body is built. It lives in
// ApiData: a reload brings a new data version, a new prefix and an empty cache.

/** Bytes an entry costs beyond its body and key: the Map slot, the entry, the ETag, its Headers. */
const ENTRY_OVERHEAD = 512;

export interface CachedAnswer {
  /** The encoded body as a Blob: a Response shares a Blob's bytes where it copies a Uint8Array's. */
  body: Blob;
  etag: string;
  /** What the entry counts against the budget. */
  bytes: number;
  /** Its response headers (ETag included) for `cacheControl`, made at its first answer (responses.ts). */
  headers: Headers | null;
  cacheControl: string | null;
}

export class AnswerCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private used = 0;
  /** The most recently used key: a repeated query skips the move to the end. */
  private newest: string | null = null;
  /** Bodies being made later (answer-later.ts), by key: one build per key at a time. */
  readonly building = new Map<string, Promise<string | Blob>>();

  /** `etagPrefix`: the data version (tzdb release and build fingerprint). */
  constructor(readonly capacityBytes: number, private readonly etagPrefix: string) {}

  /** The strong ETag of the answer to normalised query `key` (its format and profile included). */
  etagOf(key: string): string {
    return `"${this.etagPrefix}-${Bun.hash(key).toString(36)}"`;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined && key !== this.newest) {
      this.newest = key;
      // Most recently used last: a Map iterates in insertion order.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Whether `key`'s answer is kept (no change to what is least recently used). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Keeps an answer (its UTF-8 bytes, or a Blob made of its parts) if it fits the budget, dropping the least recently used ones to make room. */
  put(key: string, etag: string, made: Uint8Array | Blob): CachedAnswer {
    const body = made instanceof Blob ? made : new Blob([made]);
    const entry: CachedAnswer = { body, etag, bytes: body.size + key.length * 2 + ENTRY_OVERHEAD, headers: null, cacheControl: null };
    // An answer bigger than a quarter of the budget would flush the rest for one query: answered, not kept.
    if (entry.bytes > this.capacityBytes / 4) return entry;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.used -= old.bytes;
    }
    for (const [oldest, victim] of this.entries) {
      if (this.used + entry.bytes <= this.capacityBytes) break;
      this.entries.delete(oldest);
      this.used -= victim.bytes;
    }
    this.entries.set(key, entry);
    this.newest = key;
    this.used += entry.bytes;
    return entry;
  }

  /** Bytes held now (never above capacityBytes). */
  get usedBytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }
}
