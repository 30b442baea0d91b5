// All SQL of surveys (collection links) and uploaded files.
import type { Sql } from '@fieldwork/service-kit';

export interface SurveyRow {
  id: number;
  project_id: number;
  token: string;
  /** null: an anonymous link that never expires. */
  expiry_date: Date | null;
  created_by: number;
  time_created: Date;
  revoked_at: Date | null;
  revoked_by: number | null;
  site_id: number | null;
  kind: 'anonymous' | 'survey';
  name: string;
  proceed_unauthenticated: boolean;
}

export interface FileRow {
  file_id: string;
  organization_id: number;
  project_id: number | null;
  object_key: string;
  filename: string;
  content_type: string;
  size: number;
  purpose: 'upload' | 'logo';
  uploaded_by: number;
}

export class CollectionStore {
  constructor(private readonly sql: Sql) {}

  async createSurvey(s: {
    project_id: number;
    token: string;
    expiry_date: Date | null;
    created_by: number;
    site_id: number | null;
    kind: 'anonymous' | 'survey';
    name: string;
    proceed_unauthenticated: boolean;
  }): Promise<SurveyRow> {
    const [row] = await this.sql<SurveyRow[]>`
      insert into surveys (project_id, token, expiry_date, created_by, site_id, kind, name, proceed_unauthenticated)
      values (${s.project_id}, ${s.token}, ${s.expiry_date}, ${s.created_by}, ${s.site_id}, ${s.kind}, ${s.name},
        ${s.proceed_unauthenticated}) returning *`;
    return row!;
  }

  async surveyById(id: number): Promise<SurveyRow | undefined> {
    const [row] = await this.sql<SurveyRow[]>`select * from surveys where id = ${id}`;
    return row;
  }

  /** The project's links, newest first. */
  async surveys(projectId: number): Promise<SurveyRow[]> {
    return this.sql<SurveyRow[]>`select * from surveys where project_id = ${projectId} order by id desc`;
  }

  /**
   * Revokes a link once (a second revocation keeps the first time and who); answers the link, whether this call
   * revoked it, or undefined when not there.
   */
  async revokeSurvey(
    projectId: number,
    id: number,
    by: number,
  ): Promise<{ row: SurveyRow; changed: boolean } | undefined> {
    const [row] = await this.sql<(SurveyRow & { changed: boolean })[]>`
      with before as (select id, revoked_at from surveys where project_id = ${projectId} and id = ${id} for update)
      update surveys s set revoked_at = coalesce(s.revoked_at, now()), revoked_by = coalesce(s.revoked_by, ${by})
      from before where s.id = before.id
      returning s.*, before.revoked_at is null as changed`;
    if (!row) return undefined;
    const { changed, ...survey } = row;
    return { row: survey, changed };
  }

  /**
   * Ends a link now: its expiry date becomes now unless it has passed already (an ended link keeps the time it
   * ended). Answers the link, whether it changed, or undefined when not there.
   */
  async expireSurvey(projectId: number, id: number): Promise<{ row: SurveyRow; changed: boolean } | undefined> {
    const [row] = await this.sql<(SurveyRow & { changed: boolean })[]>`
      with before as (select id, expiry_date from surveys where project_id = ${projectId} and id = ${id} for update)
      update surveys s set expiry_date = case
          when before.expiry_date is null or before.expiry_date > now() then now() else before.expiry_date end
      from before where s.id = before.id
      returning s.*, (before.expiry_date is null or before.expiry_date > now()) as changed`;
    if (!row) return undefined;
    const { changed, ...survey } = row;
    return { row: survey, changed };
  }

  async surveyByToken(token: string): Promise<SurveyRow | undefined> {
    if (!/^[\w-]{8,64}$/.test(token)) return undefined;
    const [row] = await this.sql<SurveyRow[]>`select * from surveys where token = ${token}`;
    return row;
  }

  async survey(projectId: number, id: number): Promise<SurveyRow | undefined> {
    const [row] = await this.sql<SurveyRow[]>`select * from surveys where project_id = ${projectId} and id = ${id}`;
    return row;
  }

  /** The newest survey that has not expired nor been revoked. */
  async currentSurvey(projectId: number): Promise<SurveyRow | undefined> {
    const [row] = await this.sql<SurveyRow[]>`
      select * from surveys where project_id = ${projectId} and (expiry_date is null or expiry_date > now())
        and revoked_at is null order by id desc limit 1`;
    return row;
  }

  async addFile(f: FileRow): Promise<void> {
    await this.sql`insert into project_files ${this.sql(f as unknown as Record<string, never>)}`;
  }

  async fileById(projectId: number, fileId: string): Promise<FileRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(fileId)) return undefined;
    const [row] = await this.sql<
      FileRow[]
    >`select * from project_files where project_id = ${projectId} and file_id = ${fileId}`;
    return row;
  }

  async fileByKey(key: string): Promise<FileRow | undefined> {
    const [row] = await this.sql<FileRow[]>`select * from project_files where object_key = ${key}`;
    return row;
  }
}
