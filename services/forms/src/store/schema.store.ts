// All SQL of sampler schemas.
import { transaction, type Sql } from '@fieldwork/service-kit';
import { countQuestions, type SchemaBody } from '@fieldwork/sampler';

export interface SchemaRow {
  id: number;
  project_id: number;
  name: string;
  level: number;
  version: string;
  primary_language: string;
  body: SchemaBody;
  revision: number;
  deleted: boolean;
  time_updated: Date;
}

export interface VersionRow {
  revision: number;
  name: string | null;
  body: SchemaBody;
  time_saved: Date;
}

export type VersionSummary = Omit<VersionRow, 'body'> & { questions: number };

/** A saved schema as the service answers it: the body as the JSON text it was saved as (not parsed back). */
export type SavedRow = Omit<SchemaRow, 'body'> & { body_json: string };

/** Revisions kept per schema, beside the current one: older ones go at the next save. */
export const REVISIONS_KEPT = 100;

export class SchemaStore {
  constructor(private readonly sql: Sql) {}

  async create(s: { project_id: number; name: string; level: number; body: SchemaBody }): Promise<SchemaRow> {
    const [row] = await this.sql<SchemaRow[]>`
      insert into sampler_schemas (project_id, name, level, version, primary_language, body)
      values (${s.project_id}, ${s.name}, ${s.level}, ${s.body.version}, ${s.body.primary_language}, ${this.sql.json(s.body as never)})
      returning *`;
    return row!;
  }

  async ofProject(projectId: number): Promise<SchemaRow[]> {
    return this.sql<SchemaRow[]>`
      select * from sampler_schemas where project_id = ${projectId} and not deleted order by level, id`;
  }

  /** The project of a schema that is not deleted (0: none). */
  async projectOf(id: number): Promise<number> {
    const [row] = await this.sql<{ project_id: number }[]>`
      select project_id from sampler_schemas where id = ${id} and not deleted`;
    return row ? Number(row.project_id) : 0;
  }

  async byId(id: number): Promise<SchemaRow | undefined> {
    const [row] = await this.sql<SchemaRow[]>`select * from sampler_schemas where id = ${id} and not deleted`;
    return row;
  }

  /**
   * Saves a new revision when the schema is still at `expectedRevision` (0: any); answers undefined when someone
   * saved in between. The previous body is kept in schema_revisions.
   */
  async save(
    id: number,
    body: SchemaBody,
    name: string | undefined,
    expectedRevision: number,
    savedBy: number,
  ): Promise<SavedRow | undefined> {
    // Serialized once, for the row, its revision and the answer (a form may be 16 MiB: each pass holds the loop).
    // Sent as text and cast: a string bound to a jsonb parameter would be stored as one JSON string.
    const json = JSON.stringify(body);
    const questions = countQuestions(body);
    return transaction(this.sql, async (sql) => {
      const [row] = await sql<Omit<SchemaRow, 'body'>[]>`
        update sampler_schemas set body = ${json}::text::jsonb, revision = revision + 1,
          name = coalesce(${name ?? null}, name), version = ${body.version}, primary_language = ${body.primary_language},
          time_updated = now()
        where id = ${id} and not deleted and (${expectedRevision} = 0 or revision = ${expectedRevision})
        returning id, project_id, name, level, version, primary_language, revision, deleted, time_updated`;
      if (!row) return undefined;
      await sql`
        insert into schema_revisions (schema_id, revision, body, saved_by, name, questions)
        values (${id}, ${row.revision}, ${json}::text::jsonb, ${savedBy}, ${row.name}, ${questions})`;
      await sql`delete from schema_revisions where schema_id = ${id} and revision <= ${row.revision - REVISIONS_KEPT - 1}`;
      return { ...row, body_json: json };
    });
  }

  /**
   * Keeps the schema's current body as its revision, for a schema never saved since it was made (a save keeps
   * its own body): what is about to be replaced can be restored.
   */
  async keepCurrent(row: SchemaRow): Promise<void> {
    await this.sql`
      insert into schema_revisions (schema_id, revision, body, saved_by, name, time_saved, questions)
      values (${row.id}, ${row.revision}, ${this.sql.json(row.body as never)}, 0, ${row.name}, ${row.time_updated}, ${countQuestions(row.body)})
      on conflict (schema_id, revision) do nothing`;
  }

  /** The revisions before `current`, newest first (at most `limit`). */
  async versions(id: number, current: number, limit: number): Promise<VersionSummary[]> {
    return this.sql<VersionSummary[]>`
      select revision, name, questions, time_saved from schema_revisions
      where schema_id = ${id} and revision < ${current} order by revision desc limit ${limit}`;
  }

  async version(id: number, revision: number): Promise<VersionRow | undefined> {
    const [row] = await this.sql<VersionRow[]>`
      select revision, name, body, time_saved from schema_revisions where schema_id = ${id} and revision = ${revision}`;
    return row;
  }

  async markDeleted(projectId: number, ids: number[]): Promise<SchemaRow[]> {
    return this.sql<SchemaRow[]>`
      update sampler_schemas set deleted = true, time_updated = now()
      where project_id = ${projectId} and id = any(${ids}) and not deleted returning *`;
  }

  /** A purged project's schemas (deleted ones too) and their revisions. */
  async projectTotals(projectId: number): Promise<{ schemas: number; revisions: number }> {
    const [r] = await this.sql<{ schemas: number; revisions: number }[]>`
      select (select count(*) from sampler_schemas where project_id = ${projectId})::int as schemas,
             (select count(*) from schema_revisions where schema_id in (select id from sampler_schemas where project_id = ${projectId}))::int as revisions`;
    return r!;
  }

  /** Removes them (the revisions go with their schema: on delete cascade). */
  async removeProject(projectId: number): Promise<number> {
    return (await this.sql`delete from sampler_schemas where project_id = ${projectId}`).count;
  }
}
