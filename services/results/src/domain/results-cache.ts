// The results cache's pure parts: the key of a results request and a byte-bounded LRU of payloads. Pure.
import { createHash } from 'node:crypto';
import type { Scope } from './query.js';

/** What a results payload depends on, besides the request's own fields. */
export interface CacheKeyParts {
  /** The request without its caller (the caller counts through `scope`); every field, present and future, counts. */
  request: Record<string, unknown>;
  /** The caller's scope as the store applies it: all responses, or the caller's own and those of read sites. */
  scope: Scope;
  /** The schemas the request may read, as listed (a saved schema has a new time_updated and version). */
  schemas: readonly { id: number; name: string; level: number; version: string; time_updated: string }[];
  /** The project's mark (store/marks.store.ts): changes when what the project's results read changes. */
  mark: string;
}

/** JSON with object keys in sorted order, so that equal values give equal text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The cache key of a results request. Two requests share an entry only if every request field, the scope, the
 * schemas and the project's mark are equal. A scope of all responses is shared by every caller who has it; a restricted
 * scope is the caller's own (their user id and read sites).
 */
export function resultsCacheKey(p: CacheKeyParts): string {
  const scope = p.scope.all ? ['all'] : ['own', p.scope.userId, [...p.scope.sites].sort((a, b) => a - b)];
  const schemas = [...p.schemas]
    .sort((a, b) => a.id - b.id)
    .map((s) => [s.id, s.name, s.level, s.version, s.time_updated]);
  return createHash('sha256')
    .update(canonical([p.request, scope, schemas, p.mark]))
    .digest('base64url');
}

/** A least-recently-used map of payloads, bounded by the payloads' size (UTF-16 code units, about bytes / 2). */
export class PayloadLru {
  private readonly entries = new Map<string, string>();
  private size = 0;
  hits = 0;
  misses = 0;

  /** `maxChars`: the most payload text held at once (0: hold nothing). */
  constructor(private readonly maxChars: number) {}

  get(key: string): string | undefined {
    const v = this.entries.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, v);
    return v;
  }

  set(key: string, payload: string): void {
    if (this.maxChars <= 0 || payload.length > this.maxChars) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.size -= old.length;
    }
    this.entries.set(key, payload);
    this.size += payload.length;
    for (const [k, v] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(k);
      this.size -= v.length;
    }
  }

  /** Entries and payload text held. */
  get stats(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.size };
  }
}

/**
 * Shares reads of a value that changes (a project's mark) among concurrent callers without ever answering a caller
 * with a read that began before it asked: a caller joins the next read that has not begun yet, or starts one; while
 * a read runs, new callers wait for the one after it. At most one read runs at a time.
 */
export class FreshReads<T> {
  private running: Promise<unknown> = Promise.resolve();
  private next: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (this.next) return this.next;
    const next = this.running.then(() => {
      // From here on, callers wait for the read after this one.
      this.next = undefined;
      const r = this.read();
      this.running = r.catch(() => undefined);
      return r;
    });
    this.next = next;
    return next;
  }
}

/**
 * FreshReads per key (a project): reads of different keys run side by side, reads of one key are shared as FreshReads
 * shares them. A key nobody waits on is forgotten.
 */
export class KeyedFreshReads<K, T> {
  private readonly byKey = new Map<K, { reads: FreshReads<T>; waiting: number }>();

  constructor(private readonly read: (key: K) => Promise<T>) {}

  async get(key: K): Promise<T> {
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { reads: new FreshReads(() => this.read(key)), waiting: 0 };
      this.byKey.set(key, entry);
    }
    entry.waiting++;
    try {
      return await entry.reads.get();
    } finally {
      // Every read begun for this key had a waiter, so none is running once none waits.
      if (--entry.waiting === 0) this.byKey.delete(key);
    }
  }

  /** Keys with a read running or waited for. */
  get size(): number {
    return this.byKey.size;
  }
}
