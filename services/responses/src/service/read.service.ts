// Reading responses (spec 001 §7 Responses, References): the full fetch, the filtered chunk, one response, the
// longitudinal lookup, a referenced project's responses and the open-responses mail. Only what the caller's role
// and read_sites allow.
import { responses, type common } from '@fieldwork/proto';
import { filterModel, RESPONSE_CHUNK_PAGE_SIZE, RESPONSE_FETCH_LIMIT } from '@fieldwork/sampler';
import { isProblem, parseJsonInput, problems } from '@fieldwork/service-kit';
import { inScope } from '@fieldwork/access';
import { ResponseStore, type ResponseRow } from '../store/response.store.js';
import type { AccessCache, ResponseAccess } from './access.js';
import type { Ctx, ResponsesDeps } from './deps.js';
import { toMessage } from './mapper.js';

const MAX_PAGE_SIZE = 500;

export class ReadService {
  private readonly store: ResponseStore;

  constructor(
    private readonly deps: ResponsesDeps,
    private readonly access: AccessCache,
  ) {
    this.store = new ResponseStore(deps.sql);
  }

  /** Collection tokens upload; they read nothing. */
  private async reader(caller: common.Caller | undefined, projectId: number, ctx: Ctx): Promise<ResponseAccess> {
    const a = await this.access.get(caller, projectId, ctx);
    if (a.anonymous) throw problems.forbidden();
    if (!a.scope.all && !a.can('collect') && !a.can('edit') && a.scope.sites.length === 0) throw problems.forbidden();
    return a;
  }

  private async messages(rows: ResponseRow[]): Promise<responses.Response[]> {
    const ids = rows.map((r) => r.response_id);
    const [children, media] = await Promise.all([this.store.childrenCounts(ids), this.store.pendingMediaMany(ids)]);
    return rows.map((r) =>
      toMessage(r, { children: children.get(r.response_id) ?? 0, media: media.get(r.response_id) }),
    );
  }

  async list(req: responses.ListRequest, ctx: Ctx): Promise<responses.ResponseList> {
    const a = await this.reader(req.caller, req.project_id, ctx);
    const limit = req.limit <= 0 ? RESPONSE_FETCH_LIMIT : Math.min(req.limit, RESPONSE_FETCH_LIMIT);
    const rows = await this.store.list(req.project_id, a.scope, Math.max(0, req.after_id), limit);
    return { results: await this.messages(rows), count: rows.length };
  }

  async filter(req: responses.FilterRequest, ctx: Ctx): Promise<responses.ResponseList> {
    const a = await this.reader(req.caller, req.project_id, ctx);
    const filters = parseJsonInput(req.filters_json, filterModel, 'filters', {
      empty: {},
      notJson: 'Send the filters as a JSON object.',
    });
    const page = req.page <= 0 ? 1 : req.page;
    const pageSize = req.page_size <= 0 ? RESPONSE_CHUNK_PAGE_SIZE : Math.min(req.page_size, MAX_PAGE_SIZE);
    if (page > 1_000_000) throw problems.invalidFields({ page: ['Invalid page.'] });
    const { rows, count } = await this.store.filter(req.project_id, a.scope, req.schema_id, filters, page, pageSize);
    return { results: await this.messages(rows), count };
  }

  async getOne(req: responses.GetOneRequest, ctx: Ctx): Promise<responses.Response> {
    const a = await this.reader(req.caller, req.project_id, ctx);
    const row = await this.store.byResponseId(req.response_id);
    if (!row || row.project_id !== req.project_id || !inScope(a.scope, row)) throw problems.notFound();
    return (await this.messages([row]))[0]!;
  }

  async lookup(req: responses.LookupRequest, ctx: Ctx): Promise<responses.ResponseList> {
    const a = await this.reader(req.caller, req.project_id, ctx);
    if (req.key.trim() === '') throw problems.invalidFields({ key: ['This field is required.'] });
    // The key is stored as JSON text of the primary-key answer: numbers and text both match.
    const n = Number(req.key);
    const keys =
      Number.isFinite(n) && req.key.trim() !== ''
        ? [JSON.stringify(n), JSON.stringify(req.key)]
        : [JSON.stringify(req.key)];
    const rows = (await Promise.all(keys.map((k) => this.store.byLookupKey(req.project_id, req.schema_id, k)))).flat();
    const visible = rows.filter((r) => inScope(a.scope, r));
    return { results: await this.messages(visible), count: visible.length };
  }

  /**
   * A referenced project's responses for the reference picker: only those the caller may read in that project
   * itself (a reference grants nothing there), and of each only what the picker shows (its ids, form, display name,
   * lookup answers, completion and time) — no answers, people, places or devices.
   */
  async referenceResponses(req: responses.ReferenceResponsesRequest, ctx: Ctx): Promise<responses.ResponseList> {
    let a = await this.reader(req.caller, req.project_id, ctx);
    // A reference added within the cache's lifetime: ask again before refusing.
    if (!a.referenceIds.includes(req.reference_id)) a = await this.access.get(req.caller, req.project_id, ctx, true);
    if (!a.referenceIds.includes(req.reference_id)) throw problems.notFound();
    let there: ResponseAccess;
    try {
      there = await this.reader(req.caller, req.reference_id, ctx);
    } catch (err) {
      if (isProblem(err) && err.status < 500) throw problems.notFound();
      throw err;
    }
    const rows = await this.store.list(req.reference_id, there.scope, 0, RESPONSE_FETCH_LIMIT);
    const live = rows.filter((r) => !r.deleted);
    return { results: live.map(pickerMessage), count: live.length };
  }

  /**
   * Mails the caller's open (not completed) responses of the project as a list, to `send_to`: the caller's own
   * address only, so that the server never mails project data (or anything) to an address of the caller's choosing.
   */
  async emailOpen(req: responses.EmailOpenRequest, ctx: Ctx): Promise<responses.EmailOpenReply> {
    const a = await this.reader(req.caller, req.project_id, ctx);
    const to = req.send_to.trim();
    if (to === '') throw problems.invalidFields({ send_to: ['This field is required.'] });
    const [me] = (await this.deps.auth.getUsers({ user_ids: [req.caller?.user_id ?? 0], organization_id: 0 }, ctx))
      .results;
    if (!me || me.email.trim().toLowerCase() !== to.toLowerCase()) {
      throw problems.invalidFields({ send_to: ['Open responses can only be mailed to your own address.'] });
    }
    const rows = await this.store.open(req.project_id, a.scope);
    const lines = rows.map((r) => `${r.response_id}\t${r.display_name || '-'}\t${r.time_updated.toISOString()}`);
    const body = [
      `${rows.length} open response${rows.length === 1 ? '' : 's'} of project ${req.project_id}.`,
      '',
      'Response id\tName\tLast updated',
      ...lines,
    ].join('\n');
    await this.deps.auth.sendMail({ to, subject: `Open responses of project ${req.project_id}`, body }, ctx);
    return { open: rows.length };
  }
}

/** What the reference picker shows of a response, and nothing else. */
function pickerMessage(r: ResponseRow): responses.Response {
  const full = toMessage(r);
  return responses.Response.fromPartial({
    id: full.id,
    response_id: full.response_id,
    project: full.project,
    schema: full.schema,
    display_name: full.display_name,
    lookup_answers_json: full.lookup_answers_json,
    completed: full.completed,
    time_created: full.time_created,
    time_updated: full.time_updated,
    version: full.version,
  });
}
