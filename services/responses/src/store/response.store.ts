// All SQL of responses, their outbox rows and their media.
import type { Scope } from '@fieldwork/access';
import type { Sql } from '@fieldwork/service-kit';
import { idList, type FilterModel } from '@fieldwork/sampler';
import type { Geotag } from '../domain/upload.js';

/** A response as an export page carries it (ExportPage). */
export interface ExportRow {
  id: number;
  response_id: string;
  schema_id: number;
  parent_id: string | null;
  user_id: number | null;
  site_id: number | null;
  group_id: number | null;
  team_id: number | null;
  device_id: string;
  completed: boolean;
  time_created: string;
  time_updated: string;
  time_completed: string | null;
  time_uploaded: string;
  geotag: unknown;
  data_json: string;
}

export interface CountRow {
  key: number | null;
  total: number;
  complete: number;
  last_response: Date | null;
  collectors: number;
}

export interface ResponseRow {
  id: number;
  response_id: string;
  project_id: number;
  schema_id: number;
  user_id: number | null;
  email: string;
  anonymous: boolean;
  site_id: number | null;
  group_id: number | null;
  team_id: number | null;
  device_id: string;
  completed: boolean;
  deleted: boolean;
  locked: boolean;
  is_valid: boolean;
  is_marker: boolean;
  archived: boolean;
  parent_id: string | null;
  ancestors: string[];
  response_referenced_id: string | null;
  geotag: Geotag | null;
  geotag_history: Geotag[];
  lookup_key: string | null;
  lookup_answers: Record<string, unknown>;
  display_name: string;
  schema_level: number;
  time_created: Date;
  time_updated: Date;
  time_completed: Date | null;
  time_uploaded: Date;
  data: Record<string, Record<string, unknown>>;
  version: number;
  /** The collection link a respondent uploaded it through (null for people). */
  survey_id: number | null;
}

export type NewResponse = Omit<ResponseRow, 'id' | 'version' | 'time_uploaded'>;

/** Who may be seen (packages/access): everything, or the caller's own responses and those of some sites. */
export type { Scope };

export interface MediaRow {
  media_id: string;
  response_id: string;
  project_id: number;
  kind: 'image' | 'signature';
  object_key: string;
  filename: string;
  content_type: string;
  declared_size: number;
  size: number | null;
  thumbnail_key: string | null;
  status: 'pending' | 'uploaded';
  created_by: number | null;
  /** The collection link a respondent asked for it through (null for people). */
  survey_id: number | null;
  created_at: Date;
}

const COLUMNS = [
  'response_id',
  'project_id',
  'schema_id',
  'user_id',
  'email',
  'anonymous',
  'site_id',
  'group_id',
  'team_id',
  'device_id',
  'completed',
  'deleted',
  'locked',
  'is_valid',
  'is_marker',
  'archived',
  'parent_id',
  'ancestors',
  'response_referenced_id',
  'geotag',
  'geotag_history',
  'lookup_key',
  'lookup_answers',
  'display_name',
  'schema_level',
  'time_created',
  'time_updated',
  'time_completed',
  'data',
  'survey_id',
] as const;

export class ResponseStore {
  constructor(private readonly sql: Sql) {}

  /** Counts of a project's responses that are not deleted, grouped by `by` (schema or site), plus the totals. */
  async counts(projectId: number, by: 'schema_id' | 'site_id' | null): Promise<CountRow[]> {
    const key = by === null ? this.sql`null::bigint` : this.sql(by);
    return this.sql<CountRow[]>`
      select ${key} as key, count(*)::bigint as total, count(*) filter (where completed)::bigint as complete,
             max(time_updated) as last_response, count(distinct user_id)::bigint as collectors
      from responses where project_id = ${projectId} and not deleted
      group by 1`;
  }

  /**
   * Live responses of a project (or one schema) with an id above the cursor, in id order (keyset paging), as an
   * export page carries them: times as ISO 8601 text and the answers as JSON text, made by PostgreSQL (parsing the
   * JSONB into objects here only to write it out again was most of this call's time).
   */
  exportPage(projectId: number, schemaId: number, afterId: number, limit: number, profile = ''): Promise<ExportRow[]> {
    const iso = (c: string) => this.sql.unsafe(`to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
    return this.sql<ExportRow[]>`
      select id, response_id, schema_id, parent_id, user_id, site_id, group_id, team_id, device_id, completed,
             ${iso('time_created')} as time_created, ${iso('time_updated')} as time_updated,
             ${iso('time_completed')} as time_completed, ${iso('time_uploaded')} as time_uploaded,
             geotag, data::text as data_json
      from responses
      where project_id = ${projectId} and id > ${afterId} and not deleted ${schemaId > 0 ? this.sql`and schema_id = ${schemaId}` : this.sql``}
        ${profile ? this.sql`and (response_id = ${profile} or ${profile} = any(ancestors))` : this.sql``}
      order by id limit ${limit}`;
  }

  /**
   * Per question answered in a repeat other than the first ('0'), its highest repeat number, over the live responses
   * an export reads. Only the responses with such a repeat are read, through the partial index
   * responses_with_repeats_idx (its predicate is repeated word for word). The planner cannot estimate that predicate
   * and would scan every response, and its cost estimate turned JIT on (0.7 s of compiling for a query of 30 ms):
   * both are turned off for this one statement.
   */
  async exportRepeats(projectId: number, schemaId: number, profile = ''): Promise<Map<number, number>> {
    const rows = await this.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      await tx`set local jit = off`;
      return tx<{ item: string; top: number }[]>`
        select i.item, max(d.r::int) as top
        from responses, jsonb_each(data) as d(r, v), jsonb_object_keys(case jsonb_typeof(d.v) when 'object' then d.v else '{}'::jsonb end) as i(item)
        where project_id = ${projectId} and (data - '0') <> '{}'::jsonb and not deleted and d.r ~ '^[0-9]{1,4}$' and d.r <> '0'
          ${schemaId > 0 ? tx`and schema_id = ${schemaId}` : tx``}
          ${profile ? tx`and (response_id = ${profile} or ${profile} = any(ancestors))` : tx``}
        group by i.item`;
    });
    return new Map(rows.filter((r) => /^\d+$/.test(r.item)).map((r) => [Number(r.item), Number(r.top)]));
  }

  /** The stored response, locked for this transaction. */
  async forUpdate(responseId: string): Promise<ResponseRow | undefined> {
    const [row] = await this.sql<ResponseRow[]>`select * from responses where response_id = ${responseId} for update`;
    return row;
  }

  /** Stored responses by response id, locked for this transaction (an import batch reads them at once). */
  async forUpdateMany(responseIds: string[]): Promise<Map<string, ResponseRow>> {
    if (responseIds.length === 0) return new Map();
    const rows = await this.sql<
      ResponseRow[]
    >`select * from responses where response_id = any(${responseIds}) order by id for update`;
    return new Map(rows.map((r) => [r.response_id, r]));
  }

  async byResponseId(responseId: string): Promise<ResponseRow | undefined> {
    const [row] = await this.sql<ResponseRow[]>`select * from responses where response_id = ${responseId}`;
    return row;
  }

  private values(r: NewResponse) {
    const json = (v: unknown) => (v === null ? null : this.sql.json(v as never));
    return {
      ...Object.fromEntries(COLUMNS.map((c) => [c, r[c]])),
      geotag: json(r.geotag),
      geotag_history: json(r.geotag_history),
      lookup_answers: json(r.lookup_answers),
      data: json(r.data),
    } as unknown as Record<string, never>;
  }

  /**
   * New responses in one statement (an upload, or an import batch), in the order given, each with its outbox row made by
   * PostgreSQL from the inserted row: the event `eventOf(row)` of a new response (nothing removed), its times in
   * ISO 8601 as toISOString writes them. The answers cross the wire once (the event
   * made here and sent back took a third of a batch's time).
   */
  async insertManyWithEvents(rs: NewResponse[]): Promise<ResponseRow[]> {
    if (rs.length === 0) return [];
    const iso = (c: string) => this.sql.unsafe(`to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
    return this.sql<ResponseRow[]>`
      with ins as (insert into responses ${this.sql(rs.map((r) => this.values(r)))} returning *),
      events as (
        insert into response_outbox (response_id, project_id, version, payload)
        select response_id, project_id, version, jsonb_build_object(
          'type', 'response', 'response_id', response_id, 'version', version, 'project', project_id,
          'schema', schema_id, 'user', user_id, 'site', site_id, 'group', group_id, 'team', team_id,
          'completed', completed, 'deleted', deleted, 'archived', archived, 'parent_id', parent_id, 'geotag', geotag,
          'time_created', ${iso('time_created')}, 'time_updated', ${iso('time_updated')},
          'time_completed', ${iso('time_completed')}, 'time_uploaded', ${iso('time_uploaded')},
          'data', data, 'removed', '[]'::jsonb)
        from ins order by id)
      select * from ins order by id`;
  }

  async update(id: number, r: NewResponse): Promise<ResponseRow> {
    const [row] = await this.sql<ResponseRow[]>`
      update responses set ${this.sql(this.values(r))}, version = version + 1, time_uploaded = now() where id = ${id} returning *`;
    return row!;
  }

  async addOutbox(row: ResponseRow, payload: unknown): Promise<void> {
    await this.sql`
      insert into response_outbox (response_id, project_id, version, payload)
      values (${row.response_id}, ${row.project_id}, ${row.version}, ${this.sql.json(payload as never)})`;
  }

  private scope(s: Scope) {
    if (s.all) return this.sql`true`;
    return this.sql`(user_id = ${s.userId} or site_id = any(${s.sites}))`;
  }

  /** A page of the full fetch: `limit` responses after `afterId`, in id order. */
  async list(projectId: number, scope: Scope, afterId: number, limit: number): Promise<ResponseRow[]> {
    return this.sql<ResponseRow[]>`
      select * from responses where project_id = ${projectId} and id > ${afterId} and ${this.scope(scope)}
      order by id limit ${limit}`;
  }

  /** The filtered chunk: a page of responses matching the filter model, newest first, and how many match. */
  async filter(
    projectId: number,
    scope: Scope,
    schemaId: number,
    f: FilterModel,
    page: number,
    pageSize: number,
  ): Promise<{ rows: ResponseRow[]; count: number }> {
    const sql = this.sql;
    const parts = [sql`project_id = ${projectId}`, this.scope(scope)];
    if (schemaId > 0) parts.push(sql`schema_id = ${schemaId}`);
    if (!f.showDeleted) parts.push(sql`not deleted`);
    if (f.showOnlyCompleted || f.status === 'completed') parts.push(sql`completed`);
    if (f.status === 'open') parts.push(sql`not completed`);
    for (const [column, value] of [
      ['user_id', f.collector],
      ['group_id', f.group],
      ['team_id', f.team],
      ['site_id', f.site],
    ] as const) {
      const list = idList(value);
      if (list.length > 0) parts.push(sql`${sql(column)} = any(${list})`);
    }
    const createdBy = idList(f.createdBy);
    if (createdBy.length > 0) parts.push(sql`user_id = any(${createdBy})`);
    // A question's answer may sit in any repeat instance ("0", "1" ...): a filter on it matches a response when any
    // instance matches.
    type Fragment = (typeof parts)[number];
    const anyRepeat = (cond: Fragment) =>
      sql`exists (select 1 from jsonb_each(data) as rep(k, v) where jsonb_typeof(rep.v) = 'object' and ${cond})`;
    for (const r of f.date_ranges) {
      const conds: Fragment[] = [];
      const column =
        r.entity === 'response' ? sql`${sql(r.dateType)}` : sql`(rep.v->>${String(r.entity)})::timestamptz`;
      if (r.startDateTime !== null && r.startDateTime !== undefined)
        conds.push(sql`${column} >= to_timestamp(${r.startDateTime})`);
      if (r.endDateTime !== null && r.endDateTime !== undefined)
        conds.push(sql`${column} <= to_timestamp(${r.endDateTime})`);
      if (r.entity === 'response') parts.push(...conds);
      else if (conds.length > 0) parts.push(anyRepeat(conds.reduce((acc, c) => sql`${acc} and ${c}`)));
    }
    for (const q of f.filters) {
      const key = String(q.question);
      const push = (cond: Fragment) => parts.push(anyRepeat(cond));
      const text = sql`(rep.v->>${key})`;
      const value = q.value;
      if (Array.isArray(value) || q.operator === 'in') {
        // Choices: the answer (a list of choice ids) holds one of the values.
        const wanted = (Array.isArray(value) ? value : [value]).map(Number).filter(Number.isFinite);
        push(
          sql`exists (select 1 from jsonb_array_elements(case jsonb_typeof(rep.v->${key}) when 'array' then rep.v->${key} else jsonb_build_array(rep.v->${key}) end) e where (e #>> '{}')::numeric = any(${wanted}))`,
        );
        continue;
      }
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
            ? Number(value)
            : undefined;
      const numeric = sql`(case when jsonb_typeof(rep.v->${key}) = 'number' then ${text}::numeric end)`;
      switch (q.operator) {
        case 'contains':
          push(sql`${text} ilike ${'%' + String(value).replace(/[\\%_]/g, '\\$&') + '%'}`);
          break;
        case '==':
          push(
            n !== undefined
              ? sql`(${numeric} = ${n} or rep.v->${key} @> ${sql.json([n] as never)})`
              : sql`lower(${text}) = lower(${String(value)})`,
          );
          break;
        case '!=':
          push(
            n !== undefined
              ? sql`(${numeric} is distinct from ${n})`
              : sql`lower(coalesce(${text}, '')) <> lower(${String(value)})`,
          );
          break;
        default: {
          const op = sql.unsafe(q.operator);
          push(n !== undefined ? sql`${numeric} ${op} ${n}` : sql`${text} ${op} ${String(value)}`);
        }
      }
    }
    const where = parts.reduce((acc, p) => sql`${acc} and ${p}`);
    // The page and the count apart: a window count would read every matching row, answers and all, for one page.
    const [rows, [total]] = await Promise.all([
      sql<ResponseRow[]>`
        select * from responses where ${where}
        order by ${sql(f.sort)} desc nulls last, id desc limit ${pageSize} offset ${(page - 1) * pageSize}`,
      sql<{ n: number }[]>`select count(*)::bigint as n from responses where ${where}`,
    ]);
    return { rows, count: Number(total!.n) };
  }

  async byLookupKey(projectId: number, schemaId: number, key: string): Promise<ResponseRow[]> {
    return this.sql<ResponseRow[]>`
      select * from responses where project_id = ${projectId} and (${schemaId} = 0 or schema_id = ${schemaId}) and lookup_key = ${key} and not deleted`;
  }

  async open(projectId: number, scope: Scope): Promise<ResponseRow[]> {
    return this.sql<ResponseRow[]>`
      select * from responses where project_id = ${projectId} and not completed and not deleted and ${this.scope(scope)} order by id limit 10000`;
  }

  async childrenCounts(responseIds: string[]): Promise<Map<string, number>> {
    if (responseIds.length === 0) return new Map();
    const rows = await this.sql<{ parent_id: string; n: number }[]>`
      select parent_id, count(*)::int as n from responses where parent_id = any(${responseIds}) and not deleted group by parent_id`;
    return new Map(rows.map((r) => [r.parent_id, r.n]));
  }

  // Media.

  async addMedia(m: Omit<MediaRow, 'size' | 'thumbnail_key' | 'status' | 'created_at'>): Promise<void> {
    await this.sql`insert into media ${this.sql(m as unknown as Record<string, never>)}`;
  }

  async media(mediaId: string): Promise<MediaRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(mediaId)) return undefined;
    const [row] = await this.sql<MediaRow[]>`select * from media where media_id = ${mediaId}`;
    return row;
  }

  async markMediaUploaded(mediaId: string, size: number, thumbnailKey: string | null): Promise<void> {
    await this
      .sql`update media set status = 'uploaded', size = ${size}, thumbnail_key = ${thumbnailKey}, uploaded_at = now() where media_id = ${mediaId}`;
  }

  /** The media asked for a response (its files, pending or uploaded). */
  async mediaOf(responseId: string): Promise<MediaRow[]> {
    return this.sql<MediaRow[]>`select * from media where response_id = ${responseId}`;
  }

  /**
   * What a collection link has used: responses stored through it, bytes of the files asked for through it, and how
   * many of those files are still waiting for their bytes.
   */
  async linkUsage(surveyId: number): Promise<{ responses: number; mediaBytes: number; pendingMedia: number }> {
    const [row] = await this.sql<{ responses: number; media_bytes: string; pending_media: number }[]>`
      select (select count(*)::int from responses where survey_id = ${surveyId}) as responses,
             (select coalesce(sum(declared_size), 0)::text from media where survey_id = ${surveyId}) as media_bytes,
             (select count(*)::int from media where survey_id = ${surveyId} and status = 'pending') as pending_media`;
    return { responses: row!.responses, mediaBytes: Number(row!.media_bytes), pendingMedia: row!.pending_media };
  }

  /**
   * Takes away uploads never completed after `ttlSeconds` (their URL expired long before), at most `limit`:
   * `remove` deletes each object, then the rows go. Replicas skip the rows another one holds.
   */
  async sweepPendingMedia(ttlSeconds: number, limit: number, remove: (m: MediaRow) => Promise<void>): Promise<number> {
    return this.sql.begin(async (tx) => {
      const rows = await tx<MediaRow[]>`
        select * from media where status = 'pending' and created_at < now() - make_interval(secs => ${ttlSeconds})
        order by created_at limit ${limit} for update skip locked`;
      for (const m of rows) await remove(m);
      if (rows.length > 0) await tx`delete from media where media_id = any(${rows.map((m) => m.media_id)})`;
      return rows.length;
    }) as Promise<number>;
  }

  /** Media not uploaded yet, by kind. */
  async pendingMedia(responseId: string): Promise<{ image: number; signature: number }> {
    const rows = await this.sql<{ kind: 'image' | 'signature'; n: number }[]>`
      select kind, count(*)::int as n from media where response_id = ${responseId} and status = 'pending' group by kind`;
    return {
      image: rows.find((r) => r.kind === 'image')?.n ?? 0,
      signature: rows.find((r) => r.kind === 'signature')?.n ?? 0,
    };
  }

  async pendingMediaMany(responseIds: string[]): Promise<Map<string, { image: number; signature: number }>> {
    const out = new Map<string, { image: number; signature: number }>();
    if (responseIds.length === 0) return out;
    const rows = await this.sql<{ response_id: string; kind: 'image' | 'signature'; n: number }[]>`
      select response_id, kind, count(*)::int as n from media
      where response_id = any(${responseIds}) and status = 'pending' group by response_id, kind`;
    for (const r of rows) {
      const m = out.get(r.response_id) ?? { image: 0, signature: 0 };
      m[r.kind] = r.n;
      out.set(r.response_id, m);
    }
    return out;
  }

  // Outbox.

  /** Publishes unpublished outbox rows in id order with `publish`, skipping rows another replica holds. */
  async drainOutbox(
    publish: (
      rows: { id: number; response_id: string; project_id: number; version: number; payload_json: string }[],
    ) => Promise<number[]>,
    limit: number,
  ): Promise<number> {
    return this.sql.begin(async (tx) => {
      // The payload as JSON text, published as it is (parsing it here only to write it out again cost time).
      const rows = await tx<
        { id: number; response_id: string; project_id: number; version: number; payload_json: string }[]
      >`
        select id, response_id, project_id, version, payload::text as payload_json from response_outbox
        where published_at is null order by id limit ${limit} for update skip locked`;
      if (rows.length === 0) return 0;
      const done = await publish(rows);
      if (done.length > 0)
        await tx`update response_outbox set published_at = now(), attempts = attempts + 1 where id = any(${done})`;
      const published = new Set(done);
      const failed = rows.map((r) => r.id).filter((id) => !published.has(id));
      if (failed.length > 0) await tx`update response_outbox set attempts = attempts + 1 where id = any(${failed})`;
      return done.length;
    }) as Promise<number>;
  }

  /**
   * Deletes published outbox rows older than `retentionHours` that a newer row of the same response supersedes, at
   * most `limit`; the latest row of every response stays (restores and republishing read it). One replica at a time
   * (an advisory lock; the others skip). Answers how many went.
   */
  async pruneOutbox(retentionHours: number, limit: number): Promise<number> {
    return this.sql.begin(async (tx) => {
      const [lock] = await tx<
        { ok: boolean }[]
      >`select pg_try_advisory_xact_lock(hashtext('fieldwork.response_outbox.prune')) as ok`;
      if (!lock!.ok) return 0;
      const gone = await tx`
        delete from response_outbox where id in (
          select o.id from response_outbox o
          where o.published_at < now() - make_interval(hours => ${retentionHours})
            and exists (select 1 from response_outbox n where n.response_id = o.response_id and n.id > o.id)
          order by o.id
          limit ${limit})`;
      return gone.count;
    }) as Promise<number>;
  }

  async unpublishedCount(): Promise<number> {
    const [row] = await this.sql<
      { n: number }[]
    >`select count(*)::int as n from response_outbox where published_at is null`;
    return row!.n;
  }
}
