// All SQL of a deleted project's purge: its responses, their outbox rows and media rows, counted and removed in
// batches.
import type { Sql } from '@fieldwork/service-kit';

export interface PurgeTotals {
  responses: number;
  media: number;
  media_bytes: number;
  outbox: number;
}

export class PurgeStore {
  constructor(private readonly sql: Sql) {}

  async totals(projectId: number): Promise<PurgeTotals> {
    const [r] = await this.sql<PurgeTotals[]>`
      select (select count(*) from responses where project_id = ${projectId})::int as responses,
             (select count(*) from media where project_id = ${projectId})::int as media,
             (select coalesce(sum(coalesce(size, declared_size)), 0) from media where project_id = ${projectId})::float8 as media_bytes,
             (select count(*) from response_outbox where project_id = ${projectId})::int as outbox`;
    return r!;
  }

  /** Up to `limit` responses of the project (the oldest first) with their media's object keys. */
  async batch(projectId: number, limit: number): Promise<{ ids: number[]; responseIds: string[]; keys: string[] }> {
    const rows = await this.sql<{ id: number; response_id: string }[]>`
      select id, response_id from responses where project_id = ${projectId} order by id limit ${limit}`;
    const responseIds = rows.map((r) => r.response_id);
    const keys =
      responseIds.length === 0
        ? []
        : await this.sql<{ object_key: string; thumbnail_key: string | null }[]>`
            select object_key, thumbnail_key from media where response_id = any(${responseIds}) and project_id = ${projectId}`;
    return {
      ids: rows.map((r) => r.id),
      responseIds,
      keys: keys.flatMap((k) => (k.thumbnail_key ? [k.object_key, k.thumbnail_key] : [k.object_key])),
    };
  }

  /** Removes those responses with their media and outbox rows, in one transaction. */
  async removeBatch(
    projectId: number,
    ids: number[],
    responseIds: string[],
  ): Promise<{ media: number; outbox: number }> {
    return this.sql.begin(async (tx) => {
      const media = await tx`delete from media where response_id = any(${responseIds}) and project_id = ${projectId}`;
      const outbox =
        await tx`delete from response_outbox where response_id = any(${responseIds}) and project_id = ${projectId}`;
      await tx`delete from responses where id = any(${ids})`;
      return { media: media.count, outbox: outbox.count };
    });
  }

  /** What is left once the responses are gone: media never attached to a stored response, outbox rows. */
  async removeRest(projectId: number, limit: number): Promise<{ media: number; outbox: number; keys: string[] }> {
    return this.sql.begin(async (tx) => {
      const media = await tx<{ object_key: string; thumbnail_key: string | null }[]>`
        delete from media where media_id in (select media_id from media where project_id = ${projectId} limit ${limit})
        returning object_key, thumbnail_key`;
      const outbox = await tx`
        delete from response_outbox where id in (select id from response_outbox where project_id = ${projectId} limit ${limit})`;
      return {
        media: media.length,
        outbox: outbox.count,
        keys: media.flatMap((k) => (k.thumbnail_key ? [k.object_key, k.thumbnail_key] : [k.object_key])),
      };
    });
  }
}
