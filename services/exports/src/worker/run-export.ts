// One export job, start to end: the form, the names of sites, groups, teams and collectors, the total, then the
// responses page by page from the responses service into a CSV in the object store. The file's key is the job's,
// so a retried job writes the same object again, whole (the store replaces an object only once it is complete).
import { common, type responses } from '@fieldwork/proto';
import { InvalidObjectKeyError } from '@fieldwork/service-kit';
import type { SchemaBody } from '@fieldwork/sampler';
import {
  dictionaryRows,
  exportColumns,
  exportLayout,
  isFileOfResponse,
  longRows,
  MEDIA_UNAVAILABLE,
  mediaKeys,
  type ExportResponse,
  type Names,
} from '../domain/columns.js';
import { writeCsv } from '../export/csv-writer.js';
import { writeXlsx } from '../export/xlsx-writer.js';
import type { ExportsDeps } from '../service/deps.js';
import type { JobRow } from '../store/job.store.js';

/** A page row as the export columns read it: null where the response has no value, its answers parsed. */
export function exportResponse(r: responses.ExportRow): ExportResponse {
  return {
    response_id: r.response_id,
    parent_id: r.parent_id ?? null,
    user_id: r.user_id,
    site_id: r.site_id ?? null,
    group_id: r.group_id ?? null,
    team_id: r.team_id ?? null,
    device_id: r.device_id,
    completed: r.completed,
    time_created: r.time_created,
    time_updated: r.time_updated,
    time_completed: r.time_completed ?? null,
    time_uploaded: r.time_uploaded,
    geotag: r.geotag ?? null,
    data: JSON.parse(r.data_json) as ExportResponse['data'],
  };
}

export async function runExport(
  job: JobRow,
  deps: ExportsDeps,
  options: {
    pageSize: number;
    pageDelayMs?: number;
    progress: (done: number, total: number) => Promise<void>;
    cancelled: () => boolean;
  },
): Promise<{ key: string; rows: number; size: number }> {
  const ctx = { requestId: `job-${job.id}` };
  const caller = common.Caller.fromPartial({ user_id: job.created_by });
  const [doc, project, counts] = await Promise.all([
    deps.forms.getSchemaInternal({ schema_id: job.schema_id }, ctx),
    deps.projects.getProject({ caller, project_id: job.project_id }, ctx),
    deps.responses.countResponses({ project_id: job.project_id }, ctx),
  ]);
  const body = JSON.parse(doc.body_json) as SchemaBody;
  const lang = job.lang || body.primary_language || 'en';
  const total = job.profile ? 0 : (counts.by_schema[job.schema_id]?.total ?? 0);
  const byId = <T extends { id: number; name: string }>(list: T[]) => new Map(list.map((x) => [x.id, x.name]));
  const sites = byId(project.sites);
  const groups = byId(project.groups);
  const teams = byId(project.teams);
  const users = new Map(project.projectuser_set.map((u) => [u.user_id, u.display_name || u.username]));
  // The project shows a caller who does not manage its users others' real names only: the others are named from the
  // accounts, as before.
  const unnamed = project.projectuser_set.filter((u) => users.get(u.user_id) === '').map((u) => u.user_id);
  if (unnamed.length > 0) {
    const { results } = await deps.auth.getUsers(
      { user_ids: unnamed, organization_id: project.primary_organization },
      ctx,
    );
    for (const u of results) users.set(u.id, u.name || u.username);
  }
  const names: Names = {
    site: (id) => sites.get(id) ?? String(id),
    group: (id) => groups.get(id) ?? String(id),
    team: (id) => teams.get(id) ?? String(id),
    user: (id) => users.get(id) ?? String(id),
  };
  const base = job.kind === 'coded_csv' ? 'coded' : job.kind === 'dictionary_csv' ? 'dictionary' : 'named';
  const profile = job.profile ? `-profile-${job.profile.replace(/[^\w.-]/g, '_')}` : '';
  const key = `exports/${job.project_id}/${job.id}/${base}-${job.schema_id}${profile}.${job.kind === 'xlsx_excel' ? 'xlsx' : 'csv'}`;
  await options.progress(0, job.kind === 'dictionary_csv' ? 0 : total);

  if (job.kind === 'dictionary_csv') {
    const rows = dictionaryRows(body, lang);
    const [header, ...rest] = rows;
    const columns = header!.map((h, i) => ({
      header: h,
      cell: (r: ExportResponse) => (r as unknown as { cells: string[] }).cells[i] ?? '',
    }));
    async function* one() {
      yield rest.map((cells) => ({ cells }) as unknown as ExportResponse);
    }
    return writeCsv({ store: deps.store, key, columns, names, pages: one(), cancelled: options.cancelled });
  }

  // The first page, asked with the repeats of the whole export, decides the columns per repeat instance.
  const request = (after: number) =>
    deps.responses.exportPage(
      {
        project_id: job.project_id,
        schema_id: job.schema_id,
        after_id: after,
        limit: options.pageSize,
        profile: job.profile,
        with_repeats: after === 0,
      },
      ctx,
    );
  const first = await request(0);
  const repeats = new Map(Object.entries(first.repeats).map(([item, top]) => [Number(item), top]));
  const layout = exportLayout(repeats, job.params?.layout === 'long' ? 'long' : 'wide');
  const columns = exportColumns(body, job.kind === 'coded_csv' ? 'coded' : 'named', lang, repeats, layout);
  // Media answers become links that live as long as the file (S3 allows at most 7 days).
  const links = new Map<string, string>();
  const linkSeconds = Math.min(7 * 86_400, Math.max(60, deps.fileTtlHours * 3600));
  // A stored answer may name anything (rows from before file answers were checked): a key that is not a file of its
  // own response, or that the store refuses to sign, becomes a note in its cell, never the job's failure.
  names.media = (k, r) =>
    (isFileOfResponse(k, job.project_id, r.response_id) ? links.get(k) : undefined) ?? MEDIA_UNAVAILABLE;
  const sign = async (k: string) => {
    try {
      links.set(k, await deps.store.presignGet(k, { expiresInSeconds: linkSeconds, filename: k.split('/').pop() }));
    } catch (err) {
      if (!(err instanceof InvalidObjectKeyError)) throw err;
    }
  };
  async function* pages(): AsyncGenerator<ExportResponse[]> {
    // The next page is asked for while this one is written (two pages in memory at most): the responses service
    // reads and encodes it while this process parses and writes, instead of each waiting for the other.
    let next: Promise<typeof first> = Promise.resolve(first);
    for (;;) {
      const page = await next;
      const after = page.last_id;
      if (after !== 0) {
        next = options.pageDelayMs
          ? new Promise((r) => setTimeout(r, options.pageDelayMs)).then(() => request(after))
          : request(after);
        // A job stopped while a page is on its way leaves that page's answer unread, not unhandled.
        next.catch(() => undefined);
      }
      const read = page.rows.map(exportResponse);
      const rows = layout === 'long' ? read.flatMap(longRows) : read;
      links.clear();
      for (const k of mediaKeys(columns, rows, job.project_id)) if (!links.has(k)) await sign(k);
      if (rows.length > 0) yield rows;
      if (after === 0) return;
    }
  }
  const write = job.kind === 'xlsx_excel' ? writeXlsx : writeCsv;
  return write({
    store: deps.store,
    key,
    columns,
    names,
    pages: pages(),
    cancelled: options.cancelled,
    progress: (done) => options.progress(done, Math.max(total, done)),
  });
}
