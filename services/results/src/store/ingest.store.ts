// The ClickHouse SQL of ingestion: the batch inserts and what the tables hold (status).
import type { Engine } from '../engine/engine.js';

export class IngestStore {
  constructor(
    private readonly engine: Engine,
    private readonly db: string,
  ) {}

  /** One batch: the response rows, then the answer rows. */
  async insertBatch(responses: object[], answers: object[]): Promise<void> {
    await this.engine.insert(`${this.db}.responses`, responses);
    await this.engine.insert(`${this.db}.answers`, answers);
  }

  /** Responses, deleted ones and the upload-to-queryable lag quantiles (p50, p99), of one project or (0) all. */
  async responseStatus(projectId: number): Promise<{ responses: string; deleted: string; lag: number[] } | undefined> {
    const where = projectId > 0 ? 'WHERE project_id = {p:UInt64}' : '';
    const [r] = await this.engine.query<{ responses: string; deleted: string; lag: number[] }>(
      `SELECT count() AS responses, countIf(deleted = 1) AS deleted,
              quantiles(0.5, 0.99)(toUnixTimestamp64Milli(ingested_at) - toUnixTimestamp64Milli(time_uploaded)) AS lag
       FROM ${this.db}.responses FINAL ${where}`,
      { p: projectId },
    );
    return r;
  }

  /** Answers that count (not removed, of responses not deleted), of one project or (0) all. */
  async answerCount(projectId: number): Promise<number> {
    const where = projectId > 0 ? 'WHERE project_id = {p:UInt64}' : '';
    const [a] = await this.engine.query<{ answers: string }>(
      `SELECT count() AS answers FROM ${this.db}.answers FINAL ${where === '' ? 'WHERE' : `${where} AND`} removed = 0 AND deleted = 0`,
      { p: projectId },
    );
    return Number(a?.answers ?? 0);
  }
}
