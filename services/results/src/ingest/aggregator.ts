// Keeps the aggregates exact as batches arrive (docs/results.md "Aggregates"): per batch, the counted state of its
// responses is read, the changes (old state -1, new state +1) are inserted between a 'begin' and an 'end' row of the
// journal, then the new states. A batch that began and did not end (a failed insert, a crash) makes its projects be
// counted again from their counted states before anything else is written. A project seen for the first time is
// counted from the answers' tables first (data stored before the aggregates existed). One writer at a time: the
// results process that reads the stream.
import { randomUUID } from 'node:crypto';
import type { Logger } from '@fieldwork/service-kit';
import { changesOf, stateKey } from '../domain/state.js';
import type { ResponseEvent } from '../domain/rows.js';
import type { ProjectAggregates, StateStore } from '../store/state.store.js';

/** The time zone of a project's aggregates until one is set. */
export const DEFAULT_TIME_ZONE = 'UTC';

export class Aggregator {
  private known_: Map<number, ProjectAggregates> | undefined;
  /** Set when a batch may have been written in part: repair() runs before the next one. */
  private dirty = true;

  constructor(
    private readonly store: StateStore,
    private readonly log: Logger,
  ) {}

  private async projects(): Promise<Map<number, ProjectAggregates>> {
    this.known_ ??= await this.store.projects();
    return this.known_;
  }

  /**
   * What this process knows of a project's aggregates, without a query: null when never counted, undefined before it
   * has read them (then ask ClickHouse). Only the writer changes them, so in its process this is the truth.
   */
  known(projectId: number): ProjectAggregates | null | undefined {
    if (!this.known_ || this.dirty) return undefined;
    return this.known_.get(projectId) ?? null;
  }

  /** Forgets what it knows of the projects (after a rebuild dropped the tables). */
  reset(): void {
    this.known_ = undefined;
    this.dirty = true;
  }

  /**
   * Counts again the projects of unfinished batches, then every project that has responses and no aggregates
   * (a deployment upgraded with data). Runs before the first batch and after any failed one.
   */
  async repair(): Promise<void> {
    if (!this.dirty) return;
    this.known_ = undefined;
    const unfinished = await this.store.unfinished();
    const projects = await this.projects();
    for (const id of new Set(unfinished.flatMap((b) => b.projects))) {
      const tz = projects.get(id)?.tz ?? DEFAULT_TIME_ZONE;
      this.log.warn({ project: id }, 'aggregates: a batch was not finished; counting the project again');
      await this.count(id, tz, false);
    }
    if (unfinished.length > 0) await this.store.end(unfinished.map((b) => b.batch));
    for (const id of await this.store.uncounted()) {
      const tz = projects.get(id)?.tz ?? DEFAULT_TIME_ZONE;
      this.log.info({ project: id }, 'aggregates: counting a project stored before them');
      await this.count(id, tz, true);
    }
    this.dirty = false;
  }

  /**
   * Counts a project again (queries scan meanwhile): from the answers' tables when `fromAnswers`, else from its
   * counted states; with its days in `tz`.
   */
  async count(projectId: number, tz: string, fromAnswers: boolean): Promise<void> {
    const projects = await this.projects();
    const before = projects.get(projectId);
    await this.store.setProject(projectId, tz, false);
    projects.set(projectId, { tz, ready: false });
    if (fromAnswers) await this.store.statesFromAnswers(projectId, tz);
    else if (before && before.tz !== tz) await this.store.redate(projectId, tz);
    await this.store.recount(projectId);
    await this.store.setProject(projectId, tz, true);
    projects.set(projectId, { tz, ready: true });
  }

  /** Folds a batch of events into the aggregates. Throws when an insert fails (the batch is then sent again). */
  async write(events: readonly ResponseEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.repair();
    const projects = await this.projects();
    const touched = [...new Set(events.map((e) => e.project))];
    for (const id of touched) {
      if (projects.get(id)?.ready) continue;
      // First seen: whatever the answers' tables hold of it (before this batch) is counted first.
      if (await this.store.holds(id)) await this.count(id, projects.get(id)?.tz ?? DEFAULT_TIME_ZONE, true);
      else {
        await this.store.setProject(id, DEFAULT_TIME_ZONE, true);
        projects.set(id, { tz: DEFAULT_TIME_ZONE, ready: true });
      }
    }
    const counted = await this.store.counted(
      [...new Map(events.map((e) => [stateKey(e.project, e.response_id), e])).values()].map((e) => ({
        project: e.project,
        responseId: e.response_id,
      })),
    );
    const { changes, states } = changesOf(events, counted, (p) => projects.get(p)?.tz ?? DEFAULT_TIME_ZONE);
    if (changes.length === 0) return;
    const batch = randomUUID();
    this.dirty = true;
    await this.store.begin(batch, touched);
    await this.store.apply(changes, states);
    await this.store.end([batch]);
    this.dirty = false;
  }
}
