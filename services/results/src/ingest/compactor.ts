// Compaction: once ingestion has been idle for a while, tables with more than one active part are merged into one
// (OPTIMIZE ... FINAL). Reads use FINAL so that the newest version of a response wins; over a single part FINAL has
// nothing to merge and costs next to nothing (bench/results/variants.mjs at 1,000,000 responses: 35 ms -> 11 ms per
// aggregate). While uploads keep coming, the parts stay and FINAL does the deduplication at read time.
import type { Logger } from '@fieldwork/service-kit';
import type { Engine } from '../engine/engine.js';
import { IngestStore } from '../store/ingest.store.js';

const TABLES = ['responses', 'answers'] as const;
const CHECK_MS = 5_000;

export class Compactor {
  private timer: NodeJS.Timeout | undefined;
  private compactedAfter = -1;
  private busy = false;
  private readonly store: IngestStore;

  constructor(
    engine: Engine,
    private readonly options: { db: string; idleMs: number; log: Logger; lastWriteAt: () => number; cluster?: string },
  ) {
    this.store = new IngestStore(engine, options.db);
  }

  start(): void {
    if (this.options.idleMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), CHECK_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const last = this.options.lastWriteAt();
    if (this.busy || last === this.compactedAfter || Date.now() - last < this.options.idleMs) return;
    this.busy = true;
    try {
      await this.compact();
      this.compactedAfter = last;
    } catch (err) {
      this.options.log.warn({ err }, 'compaction failed; will try again');
    } finally {
      this.busy = false;
    }
  }

  /** Merges each table that has more than one active part; answers the tables it merged. */
  async compact(): Promise<string[]> {
    const done: string[] = [];
    // On a cluster the data lives in <table>_local on every node: its parts are counted on this node and merged on all.
    const cluster = this.options.cluster ?? '';
    for (const name of TABLES) {
      const table = cluster ? `${name}_local` : name;
      const parts = await this.store.activeParts(table);
      if (parts <= 1) continue;
      const t0 = Date.now();
      await this.store.optimize(table, cluster);
      this.options.log.info({ table, parts, ms: Date.now() - t0 }, 'compacted');
      done.push(table);
    }
    return done;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
