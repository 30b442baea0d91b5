// Sampler schema use cases needed by projects: create (per project or level), list, count questions, duplicate.
import type { common, forms } from '@fieldwork/proto';
import { countQuestions, newSchemaBody } from '@fieldwork/sampler';
import { problems, transaction, type Sql } from '@fieldwork/service-kit';
import { SchemaStore, type SchemaRow } from '../store/schema.store.js';

const toSchema = (r: SchemaRow): forms.Schema => ({
  id: r.id,
  project_id: r.project_id,
  name: r.name,
  version: r.version,
  level: r.level,
  primary_language: r.primary_language,
  time_updated: r.time_updated.toISOString(),
  questions: countQuestions(r.body),
});

export class SchemaService {
  private readonly store: SchemaStore;

  constructor(private readonly sql: Sql) {
    this.store = new SchemaStore(sql);
  }

  async create(req: forms.CreateSchemaRequest): Promise<forms.Schema> {
    if (req.project_id <= 0) throw problems.invalidProjectId();
    if (!['S', 'T', 'L'].includes(req.project_type))
      throw problems.invalidFields({ project_type: ['Choose S, T or L.'] });
    return toSchema(
      await this.store.create({
        project_id: req.project_id,
        name: req.name.trim(),
        level: req.level,
        body: newSchemaBody(req.project_type),
      }),
    );
  }

  async list(req: forms.ListSchemasRequest): Promise<forms.SchemaList> {
    return { results: (await this.store.ofProject(req.project_id)).map(toSchema) };
  }

  async countQuestions(req: forms.CountQuestionsRequest): Promise<forms.QuestionCounts> {
    const rows = await this.store.ofProject(req.project_id);
    const by_schema = Object.fromEntries(rows.map((r) => [r.id, countQuestions(r.body)]));
    return { questions: Object.values(by_schema).reduce((a, b) => a + b, 0), by_schema };
  }

  async duplicate(req: forms.DuplicateSchemasRequest): Promise<forms.SchemaList> {
    const created = await transaction(this.sql, async (tx) => {
      const store = new SchemaStore(tx);
      const out: SchemaRow[] = [];
      for (const r of await store.ofProject(req.from_project_id)) {
        out.push(await store.create({ project_id: req.to_project_id, name: r.name, level: r.level, body: r.body }));
      }
      return out;
    });
    return { results: created.map(toSchema) };
  }

  async delete(req: forms.DeleteSchemasRequest): Promise<forms.SchemaList> {
    return { results: (await this.store.markDeleted(req.project_id, req.schema_ids)).map(toSchema) };
  }

  /** A deleted project's purge (an internal call of the projects service's purge job): its schemas and revisions. */
  async purge(req: common.PurgeProjectRequest): Promise<common.PurgeCounts> {
    if (req.project_id <= 0) throw problems.invalidProjectId();
    const before = await this.store.projectTotals(req.project_id);
    const counts = { schemas: before.schemas, schema_revisions: before.revisions };
    if (req.dry_run) return { counts, remaining: before.schemas + before.revisions };
    await this.store.removeProject(req.project_id);
    const after = await this.store.projectTotals(req.project_id);
    return { counts, remaining: after.schemas + after.revisions };
  }
}
