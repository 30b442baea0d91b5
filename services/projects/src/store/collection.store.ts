// All SQL of surveys (collection links) and uploaded files.
import type { Sql } from '@fieldwork/service-kit';

export interface SurveyRow {
  id: number;
  project_id: number;
  token: string;
  expiry_date: Date;
  created_by: number;
  time_created: Date;
  revoked_at: Date | null;
  revoked_by: number | null;
  site_id: number | null;
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
    expiry_date: Date;
    created_by: number;
    site_id: number | null;
  }): Promise<SurveyRow> {
    const [row] = await this.sql<SurveyRow[]>`
      insert into surveys (project_id, token, expiry_date, created_by, site_id)
      values (${s.project_id}, ${s.token}, ${s.expiry_date}, ${s.created_by}, ${s.site_id}) returning *`;
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

  /** Revokes a link once (a second revocation keeps the first time); answers it, or undefined when not there. */
  async revokeSurvey(projectId: number, id: number, by: number): Promise<SurveyRow | undefined> {
    const [row] = await this.sql<SurveyRow[]>`
      update surveys set revoked_at = coalesce(revoked_at, now()), revoked_by = coalesce(revoked_by, ${by})
      where project_id = ${projectId} and id = ${id} returning *`;
    return row;
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
      select * from surveys where project_id = ${projectId} and expiry_date > now() and revoked_at is null order by id desc limit 1`;
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
