// The results service's use cases (ResultsService and CountService, as the gRPC handlers call them) on its real
// ClickHouse engine (chDB), fed as in production: responses uploaded to the real responses service reach the stream
// through its outbox and this service's ingestor. The real projects service decides access and the real forms
// service serves the schema. Statistics per question, filters, the levels' counts, and the refusals.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { common, forms, projects, responses, type results } from '@fieldwork/proto';
import { addBlock, addChoice, addItem, newSchemaBody, type SchemaBody } from '@fieldwork/sampler';
import { createClient, createLogger, GRANT_KEY, signGrant, type CallContext } from '@fieldwork/service-kit';
import { acceptInvitation, newOwner, newProject, startPeers, type Peers } from '../../projects/test/support/peers.js';
import { migrateResults } from '../src/app.js';
import { ChdbEngine } from '../src/engine/chdb.engine.js';
import { Ingestor } from '../src/ingest/consumer.js';
import { CachedResultsService } from '../src/service/cached-results.service.js';
import { CountService } from '../src/service/count.service.js';
import { ResultsService } from '../src/service/results.service.js';
import { CountStore } from '../src/store/count.store.js';
import { ResultsStore } from '../src/store/results.store.js';
import { AggregatesStore } from '../src/store/aggregates.store.js';
import { MarkStore } from '../src/store/marks.store.js';
import { loadResultsConfig } from '../src/config.js';

let peers: Peers;
let engine: ChdbEngine;
let ingestor: Ingestor;
let service: ResultsService;
let cached: CachedResultsService;
let counts: CountService;
let marks: MarkStore;
const log = createLogger('results-service-test', 'silent');
const connect = () => ({
  projects: createClient(projects.ProjectsServiceClient, peers.address('projects'), { secret: peers.contextSecret }),
  forms: createClient(forms.FormsServiceClient, peers.address('forms'), { secret: peers.contextSecret }),
  responses: createClient(responses.ResponsesServiceClient, peers.address('responses'), {
    secret: peers.contextSecret,
  }),
});
let clients: ReturnType<typeof connect>;
// A call without metadata: no gateway grant, so the service asks the projects service.
const ctx = { requestId: 'results-service-test', log, headers: {} } as unknown as CallContext;

beforeAll(async () => {
  // Not the results service itself: its chDB directory is opened here, once per process.
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadResultsConfig({ ...peers.env('results'), CLICKHOUSE_PATH: join(peers.dataDir, 'chdb-test') });
  engine = new ChdbEngine(config.CLICKHOUSE_PATH);
  await migrateResults(engine, config, log);
  ingestor = new Ingestor(engine, {
    natsUrl: peers.infra.natsUrl,
    prefix: peers.infra.natsPrefix,
    db: config.CLICKHOUSE_DATABASE,
    log,
  });
  ingestor.start();
  clients = connect();
  service = new ResultsService(
    new ResultsStore(engine, config.CLICKHOUSE_DATABASE),
    new AggregatesStore(engine, config.CLICKHOUSE_DATABASE),
    clients.projects,
    clients.forms,
    peers.contextSecret,
  );
  counts = new CountService(new CountStore(engine, config.CLICKHOUSE_DATABASE));
  marks = new MarkStore(engine, config.CLICKHOUSE_DATABASE);
  cached = new CachedResultsService(
    new ResultsStore(engine, config.CLICKHOUSE_DATABASE),
    marks,
    2 ** 20,
    new AggregatesStore(engine, config.CLICKHOUSE_DATABASE),
    clients.projects,
    clients.forms,
    peers.contextSecret,
  );
}, 120_000);

afterAll(async () => {
  await ingestor?.stop();
  clients?.projects.close();
  clients?.forms.close();
  clients?.responses.close();
  await peers?.stop();
  await engine?.close();
});

/** A form of one number question (Adults) and one choice question (Fuel: Wood, Gas). */
function householdForm() {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const adults = addItem(b.body, b.id, 'number', 'en', 'Adults');
  const fuel = addItem(adults.body, b.id, 'choice', 'en', 'Fuel');
  const wood = addChoice(fuel.body, fuel.id, 'en', 'Wood');
  const gas = addChoice(wood.body, fuel.id, 'en', 'Gas');
  const body: SchemaBody = gas.body;
  return { body, ids: { adults: adults.id, fuel: fuel.id, wood: wood.id, gas: gas.id } };
}

/**
 * A project with the household form and four responses uploaded to the responses service (adults 1, 2, 3, 6; fuel
 * wood, wood, gas, none; the first two completed), waited for until ingested.
 */
async function projectWithResponses() {
  const { caller } = await newOwner(peers);
  const project = await newProject(peers, caller);
  const schema = project.project_hierarchy[0]!.schema_id;
  const { body, ids } = householdForm();
  const doc = await clients.forms.getSchemaDocument({ caller, schema_id: schema });
  await clients.forms.saveSchemaDocument({
    caller,
    schema_id: schema,
    body_json: JSON.stringify(body),
    revision: doc.revision,
    name: '',
  });
  const answers = [
    { [ids.adults]: 1, [ids.fuel]: [ids.wood] },
    { [ids.adults]: 2, [ids.fuel]: [ids.wood] },
    { [ids.adults]: 3, [ids.fuel]: [ids.gas] },
    { [ids.adults]: 6 },
  ];
  for (const [i, data] of answers.entries()) {
    await clients.responses.upload({
      caller,
      project_id: project.id,
      action: i < 2 ? 'complete' : 'save',
      payload_json: JSON.stringify({
        sampler_schema: schema,
        device_id: 'd',
        response_id: `${project.id}-${schema}-1-d-${i}`,
        data: { '0': data },
      }),
    });
  }
  const end = Date.now() + 30_000;
  while ((await counts.counts({ project_id: project.id })).all?.total !== answers.length) {
    if (Date.now() > end) throw new Error('the responses never reached the results');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { caller, project, schema, ids };
}

const request = (fields: Partial<results.ResultsRequest>) =>
  ({
    caller: undefined,
    project_id: 0,
    schema_id: 0,
    block_id: 0,
    item_ids: [],
    filters_json: '',
    timing_column: '',
    comparisons_json: '',
    buckets: 0,
    time_zone: '',
    profile_schema_id: 0,
    profile_response_id: '',
    lookup_query: '',
    limit: 0,
    offset: 0,
    aggregator: '',
    ...fields,
  }) satisfies results.ResultsRequest;

interface Payload {
  items: { item_id: number; stats?: Record<string, unknown>; answers?: unknown[]; [k: string]: unknown }[];
  levels: { schema_id: number; total_filtered_responses: number }[];
}
const payloadOf = (r: results.ResultsReply) => JSON.parse(r.payload_json) as Payload;

let fixture: Awaited<ReturnType<typeof projectWithResponses>>;

describe(ResultsService.name, () => {
  beforeAll(async () => {
    fixture = await projectWithResponses();
  }, 60_000);

  it('counts the ingested responses of the project, in all and completed', async () => {
    const c = await counts.counts({ project_id: fixture.project.id });
    expect(c.all).toMatchObject({ total: 4, complete: 2 });
    expect(c.by_schema[fixture.schema]).toMatchObject({ total: 4, complete: 2 });
  });

  it("answers each question's statistics: a number's count, sum, mean, minimum and maximum", async () => {
    const { caller, project, ids } = fixture;
    const out = payloadOf(await service.results(request({ caller, project_id: project.id }), ctx));
    expect(out.levels).toEqual([expect.objectContaining({ schema_id: fixture.schema, total_filtered_responses: 4 })]);
    const adults = out.items.find((i) => i.item_id === ids.adults)!;
    expect(adults.stats).toMatchObject({ count: 4, sum: 12, avg: 3, min: 1, max: 6 });
    expect(out.items.map((i) => i.item_id)).toEqual([ids.adults, ids.fuel]);
  });

  it('counts the answers of a choice question by choice', async () => {
    const { caller, project, ids } = fixture;
    const out = payloadOf(
      await service.results(request({ caller, project_id: project.id, item_ids: [ids.fuel] }), ctx),
    );
    // Wood twice, Gas once, of three answered (the fourth response left it blank).
    expect(out.items).toEqual([
      expect.objectContaining({
        item_id: ids.fuel,
        type: 'choice',
        stats: { count: 3 },
        answers: [
          expect.objectContaining({ choice_id: ids.wood, count: 2 }),
          expect.objectContaining({ choice_id: ids.gas, count: 1 }),
        ],
      }),
    ]);
  });

  it('applies the filter model: only completed responses', async () => {
    const { caller, project, ids } = fixture;
    const out = payloadOf(
      await service.results(
        request({ caller, project_id: project.id, filters_json: JSON.stringify({ showOnlyCompleted: true }) }),
        ctx,
      ),
    );
    expect(out.levels[0]!.total_filtered_responses).toBe(2);
    expect(out.items.find((i) => i.item_id === ids.adults)!.stats).toMatchObject({ count: 2, sum: 3, min: 1, max: 2 });
  });

  it('refuses a bad time zone and an unknown timing column by field', async () => {
    const { caller, project } = fixture;
    await expect(
      service.results(request({ caller, project_id: project.id, time_zone: 'Not a zone!' }), ctx),
    ).rejects.toMatchObject({
      code: '400.1',
      fields: { time_zone: ['Enter a time zone such as UTC or Europe/Paris.'] },
    });
    await expect(
      service.results(request({ caller, project_id: project.id, timing_column: 'time_invented' }), ctx),
    ).rejects.toMatchObject({ code: '400.1', fields: { timing_column: [expect.stringContaining('Choose one of')] } });
  });

  it('answers "Invalid Schema Id!" for a schema of another project', async () => {
    const { caller, project } = fixture;
    const other = await newProject(peers, caller, 'Other');
    await expect(
      service.results(
        request({ caller, project_id: project.id, schema_id: other.project_hierarchy[0]!.schema_id }),
        ctx,
      ),
    ).rejects.toMatchObject({ code: '404.9', message: 'Invalid Schema Id!' });
  });

  it('refuses a collector, who may not see results, and a caller of another workspace', async () => {
    const { caller, project } = fixture;
    const added = await clients.projects.addProjectUser(
      projects.AddProjectUserRequest.fromPartial({
        caller,
        project_id: project.id,
        email: `results.collector.${peers.infra.runId}@example.org`,
        first_name: 'Cleo',
        last_name: 'Collector',
        password: 'correct horse 42',
        roles: { collector: true },
      }),
    );
    await acceptInvitation(peers, added.email);
    const collector = common.Caller.fromPartial({ user_id: added.user_id, organization_id: caller.organization_id });
    await expect(service.results(request({ caller: collector, project_id: project.id }), ctx)).rejects.toMatchObject({
      code: '403.1',
      message: "You don't have access to this item.",
    });
    const other = await newOwner(peers);
    await expect(service.results(request({ caller: other.caller, project_id: project.id }), ctx)).rejects.toMatchObject(
      {
        code: '404.4',
      },
    );
  });
});

/**
 * A household form (Name, a lookup question, and Adults, asked once) with a repeated category People (Age, Sex: F, M),
 * and three responses: Alice Martin (2 adults; people aged 30 F, 4 M, 7 F), Bob Marley (1; 40 M) and Carla Smith
 * (3; 50 F, 12 M), uploaded to the responses service with the people as repeats 0, 1, 2.
 */
async function projectWithRepeats() {
  const { caller } = await newOwner(peers);
  const project = await newProject(peers, caller);
  const schema = project.project_hierarchy[0]!.schema_id;
  const home = addBlock(newSchemaBody('S'), { en: 'Household' });
  const name = addItem(home.body, home.id, 'open', 'en', 'Name');
  name.body.entities.items[name.id]!.options.isLookupQuestion = true;
  const adults = addItem(name.body, home.id, 'number', 'en', 'Adults');
  const people = addBlock(adults.body, { en: 'People' });
  const age = addItem(people.body, people.id, 'number', 'en', 'Age');
  const sex = addItem(age.body, people.id, 'choice', 'en', 'Sex');
  const f = addChoice(sex.body, sex.id, 'en', 'F');
  const m = addChoice(f.body, sex.id, 'en', 'M');
  const doc = await clients.forms.getSchemaDocument({ caller, schema_id: schema });
  await clients.forms.saveSchemaDocument({
    caller,
    schema_id: schema,
    body_json: JSON.stringify(m.body),
    revision: doc.revision,
    name: '',
  });
  const ids = {
    home: home.id,
    people: people.id,
    name: name.id,
    adults: adults.id,
    age: age.id,
    sex: sex.id,
    f: f.id,
    m: m.id,
  };
  const person = (a: number, s: number) => ({ [ids.age]: a, [ids.sex]: [s] });
  const data = [
    {
      '0': { [ids.name]: 'Alice Martin', [ids.adults]: 2, ...person(30, ids.f) },
      '1': person(4, ids.m),
      '2': person(7, ids.f),
    },
    { '0': { [ids.name]: 'Bob Marley', [ids.adults]: 1, ...person(40, ids.m) } },
    { '0': { [ids.name]: 'Carla Smith', [ids.adults]: 3, ...person(50, ids.f) }, '1': person(12, ids.m) },
  ];
  const responseIds = data.map((_, i) => `${project.id}-${schema}-1-d-${i}`);
  for (const [i, d] of data.entries())
    await clients.responses.upload({
      caller,
      project_id: project.id,
      action: 'save',
      payload_json: JSON.stringify({ sampler_schema: schema, device_id: 'd', response_id: responseIds[i], data: d }),
    });
  const end = Date.now() + 30_000;
  while ((await counts.counts({ project_id: project.id })).all?.total !== data.length) {
    if (Date.now() > end) throw new Error('the responses never reached the results');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { caller, project, schema, ids, responseIds };
}

let repeats: Awaited<ReturnType<typeof projectWithRepeats>>;

describe(`${ResultsService.name}: every repeat instance, lookups by page, advanced results in ClickHouse`, () => {
  beforeAll(async () => {
    repeats = await projectWithRepeats();
  }, 60_000);

  const results = (filters: object, item_ids: number[]) =>
    service
      .results(
        request({
          caller: repeats.caller,
          project_id: repeats.project.id,
          item_ids,
          filters_json: JSON.stringify(filters),
        }),
        ctx,
      )
      .then(payloadOf);

  it('counts every repeat instance in the statistics: six ages and six sexes over three responses', async () => {
    const { ids } = repeats;
    const out = await results({}, [ids.age, ids.sex]);
    // Ages 30, 4, 7, 40, 50, 12.
    expect(out.items[0]!.stats).toMatchObject({ count: 6, sum: 143, min: 4, max: 50 });
    expect(out.items[0]!.stats!.avg).toBeCloseTo(143 / 6, 10);
    expect(out.items[1]).toMatchObject({
      stats: { count: 6 },
      answers: [
        expect.objectContaining({ choice_id: ids.f, count: 3 }),
        expect.objectContaining({ choice_id: ids.m, count: 3 }),
      ],
    });
  });

  it('matches a response when any instance matches a filter on a repeated question', async () => {
    const { ids } = repeats;
    // Only Alice's household has someone under 10 (4 and 7, in repeats 1 and 2).
    const young = await results({ filters: [{ question: ids.age, operator: '<', value: 10 }] }, [ids.adults]);
    expect(young.levels[0]!.total_filtered_responses).toBe(1);
    expect(young.items[0]!.stats).toMatchObject({ count: 1, sum: 2 });
    // A man: Alice's (repeat 1), Bob's (repeat 0) and Carla's (repeat 1) households.
    const men = await results({ filters: [{ question: ids.sex, operator: 'in', value: [ids.m] }] }, [ids.adults]);
    expect(men.levels[0]!.total_filtered_responses).toBe(3);
    expect(men.items[0]!.stats).toMatchObject({ count: 3, sum: 6 });
  });

  it('answers the profiles a page at a time, searched on the server, case-insensitive', async () => {
    const { caller, project, responseIds } = repeats;
    const lookups = async (fields: Partial<results.ResultsRequest>) =>
      JSON.parse((await service.lookups(request({ caller, project_id: project.id, ...fields }), ctx)).payload_json) as {
        results: { count: number; responses: { response_id: string; display_name: string }[] }[];
        limit: number;
      };
    const all = await lookups({});
    expect(all.limit).toBe(50);
    expect(all.results[0]).toMatchObject({ count: 3 });
    expect(all.results[0]!.responses.map((r) => r.display_name)).toEqual(['Alice Martin', 'Bob Marley', 'Carla Smith']);
    const mar = await lookups({ lookup_query: 'MAR', limit: 1 });
    expect(mar.results[0]!.count).toBe(2);
    expect(mar.results[0]!.responses.map((r) => r.response_id)).toEqual([responseIds[0]]);
    const next = await lookups({ lookup_query: 'MAR', limit: 1, offset: 1 });
    expect(next.results[0]!.responses.map((r) => r.display_name)).toEqual(['Bob Marley']);
    expect((await lookups({ lookup_query: 'nobody' })).results[0]).toMatchObject({ count: 0, responses: [] });
    await expect(lookups({ limit: 1_000_000 })).rejects.toMatchObject({
      code: '400.1',
      fields: { limit: ['Ensure this value is between 1 and 100.'] },
    });
  });

  it('computes advanced results from aggregates in ClickHouse, with the page filters, as computed by hand', async () => {
    const { caller, project, ids } = repeats;
    const age = `Q${ids.people}_${ids.age}`;
    const adults = `Q${ids.home}_${ids.adults}`;
    const formulas = {
      sum: `SUM(${age})`,
      mean: `AVERAGE(${age}) + MAX(${adults})`,
      count: `COUNT(Q${ids.people}_*)`,
      mixed: `SUM(${age}, 10) - MIN(${age}, 2)`,
      bare: `${adults} * 2`,
    };
    for (const [name, formula] of Object.entries(formulas))
      await clients.projects.saveAdvancedResult(
        projects.SaveAdvancedResultRequest.fromPartial({
          caller,
          project_id: project.id,
          fields: projects.AdvancedResult.fromPartial({ name, formula, threshold_value_upper: 100 }),
        }),
      );
    const advanced = async (filters: object) => {
      const out = await service.advancedResults(
        request({ caller, project_id: project.id, filters_json: JSON.stringify(filters) }),
        ctx,
      );
      const list = (
        JSON.parse(out.payload_json) as {
          results: { name: string; value: number | null; status: string; error: string | null }[];
        }
      ).results;
      return Object.fromEntries(list.map((r) => [r.name, r]));
    };
    const all = await advanced({});
    expect(all.sum).toMatchObject({ value: 143, status: 'above' });
    expect(all.mean!.value).toBeCloseTo(143 / 6 + 3, 10);
    expect(all.count).toMatchObject({ value: 6, status: 'within' });
    expect(all.mixed).toMatchObject({ value: 153 - 2 });
    // A reference outside an aggregate is a list, which arithmetic refuses (the formula language, as before).
    expect(all.bare).toMatchObject({ value: null, error: 'Could not calculate!' });
    // The page's filter: households of more than one adult (Alice's and Carla's): ages 30, 4, 7, 50, 12.
    const big = await advanced({ filters: [{ question: ids.adults, operator: '>', value: 1 }] });
    expect(big.sum).toMatchObject({ value: 103 });
    expect(big.count).toMatchObject({ value: 5 });
    expect(big.mean!.value).toBeCloseTo(103 / 5 + 3, 10);
    // Only Bob's household: one person, aged 40.
    const bob = await advanced({ filters: [{ question: ids.name, operator: 'contains', value: 'bob' }] });
    expect(bob.sum).toMatchObject({ value: 40 });
    expect(bob.mixed).toMatchObject({ value: 50 - 2 });
  });

  it('refuses filters naming an unknown question, choice or site, and an inverted date range: 400 by field', async () => {
    const { ids } = repeats;
    await expect(results({ filters: [{ question: 999_999, value: 1 }] }, [])).rejects.toMatchObject({
      code: '400.1',
      fields: { filters: ['Question 999999 is not a question of this form.'] },
    });
    await expect(
      results({ filters: [{ question: ids.sex, operator: 'in', value: [ids.f, 4242] }] }, []),
    ).rejects.toMatchObject({
      code: '400.1',
      fields: { filters: [`Choice 4242 is not a choice of question ${ids.sex}.`] },
    });
    await expect(results({ site: [987_654] }, [])).rejects.toMatchObject({
      code: '400.1',
      fields: { site: ['Site 987654 is not a site of this project.'] },
    });
    await expect(
      results({ date_ranges: [{ entity: 'response', startDateTime: 1_800_000_000, endDateTime: 1_700_000_000 }] }, []),
    ).rejects.toMatchObject({
      code: '400.1',
      fields: { date_ranges: ['The start of a date range must not be after its end.'] },
    });
    const site = repeats.project.sites[0]!.id;
    expect((await results({ site: [site] }, [])).levels[0]!.total_filtered_responses).toBe(3);
  });
});

describe(CachedResultsService.name, () => {
  let own: Awaited<ReturnType<typeof projectWithResponses>>;
  beforeAll(async () => {
    own = await projectWithResponses();
  }, 60_000);
  const ask = (fields: Partial<results.ResultsRequest>, context = ctx) =>
    cached.results(request({ caller: own.caller, project_id: own.project.id, ...fields }), context);

  it('answers the payload the uncached service answers, the second time from the cache', async () => {
    const uncached = await service.results(request({ caller: own.caller, project_id: own.project.id }), ctx);
    const first = await ask({});
    const hits = cached.cacheStats.hits;
    const second = await ask({});
    expect(cached.cacheStats.hits).toBe(hits + 1);
    expect(JSON.parse(first.payload_json)).toEqual(JSON.parse(uncached.payload_json));
    expect(second.payload_json).toBe(first.payload_json);
  });

  it('never shares an entry between filters or between scopes', async () => {
    expect(payloadOf(await ask({})).levels[0]!.total_filtered_responses).toBe(4);
    const completed = JSON.stringify({ showOnlyCompleted: true });
    expect(payloadOf(await ask({ filters_json: completed })).levels[0]!.total_filtered_responses).toBe(2);
    // Another user who may see only the responses of a site none of these were filed under, by a gateway's grant.
    const outsider = common.Caller.fromPartial({
      user_id: own.caller.user_id + 100_000,
      organization_id: own.caller.organization_id,
    });
    const access = projects.ProjectAccess.fromPartial({ project_id: own.project.id, read_sites: [987_654] });
    const token = signGrant(peers.contextSecret, outsider, access, Date.now());
    const granted = {
      ...ctx,
      metadata: { get: (k: string) => (k === GRANT_KEY ? [token] : []) },
    } as unknown as CallContext;
    const theirs = payloadOf(await ask({ caller: outsider }, granted));
    expect(theirs.levels[0]!.total_filtered_responses).toBe(0);
    expect(payloadOf(await ask({})).levels[0]!.total_filtered_responses).toBe(4);
  });

  /** Uploads one response with `adults` to the project, and waits until its batch is written and marked. */
  async function uploadAndMark(to: Awaited<ReturnType<typeof projectWithResponses>>, id: string, adults: number) {
    const before = (await marks.read(to.project.id)).key;
    await clients.responses.upload({
      caller: to.caller,
      project_id: to.project.id,
      action: 'save',
      payload_json: JSON.stringify({
        sampler_schema: to.schema,
        device_id: 'd',
        response_id: `${to.project.id}-${to.schema}-1-d-${id}`,
        data: { '0': { [to.ids.adults]: adults } },
      }),
    });
    const end = Date.now() + 30_000;
    while ((await marks.read(to.project.id)).key === before) {
      if (Date.now() > end) throw new Error('the new response was never marked');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("answers a new response as soon as its batch is marked: the project's mark is written after the data", async () => {
    const { ids } = own;
    expect(payloadOf(await ask({})).levels[0]!.total_filtered_responses).toBe(4);
    expect(payloadOf(await ask({})).items.find((i) => i.item_id === ids.adults)!.stats).toMatchObject({ count: 4 });
    await uploadAndMark(own, 'new', 10);
    // Marked now: the very next results answer counts it, and its answers.
    const after = payloadOf(await ask({}));
    expect(after.levels[0]!.total_filtered_responses).toBe(5);
    expect(after.items.find((i) => i.item_id === ids.adults)!.stats).toMatchObject({ count: 5, sum: 22, max: 10 });
  });

  it("keeps a project's entry while another project's uploads arrive, and drops it at the project's own", async () => {
    const other = await projectWithResponses();
    const askOther = () => cached.results(request({ caller: other.caller, project_id: other.project.id }), ctx);
    const mine = payloadOf(await ask({}));
    expect(payloadOf(await askOther()).levels[0]!.total_filtered_responses).toBe(4);
    // Both entries are in the cache now.
    let stats = cached.cacheStats;
    expect(payloadOf(await ask({}))).toEqual(mine);
    expect(cached.cacheStats.hits).toBe(stats.hits + 1);

    // An upload to the other project, written and marked: this project's entry is still served, the other's is not.
    await uploadAndMark(other, 'b1', 7);
    stats = cached.cacheStats;
    expect(payloadOf(await ask({}))).toEqual(mine);
    expect(cached.cacheStats).toMatchObject({ hits: stats.hits + 1, misses: stats.misses });
    expect(payloadOf(await askOther()).levels[0]!.total_filtered_responses).toBe(5);
    expect(cached.cacheStats).toMatchObject({ hits: stats.hits + 1, misses: stats.misses + 1 });

    // This project's own upload drops its entry: the next answer is computed again and counts it.
    await uploadAndMark(own, 'a1', 1);
    stats = cached.cacheStats;
    const now = payloadOf(await ask({}));
    expect(cached.cacheStats).toMatchObject({ hits: stats.hits, misses: stats.misses + 1 });
    expect(now.levels[0]!.total_filtered_responses).toBe(mine.levels[0]!.total_filtered_responses + 1);
    // And the other project's entry, made after its upload, is served again.
    expect(payloadOf(await askOther()).levels[0]!.total_filtered_responses).toBe(5);
    expect(cached.cacheStats.hits).toBe(stats.hits + 1);
  });

  it('drops every entry when the whole store changes (a rebuild, a migration)', async () => {
    await ask({});
    const stats = cached.cacheStats;
    await ask({});
    expect(cached.cacheStats.hits).toBe(stats.hits + 1);
    await marks.touchAll();
    await ask({});
    expect(cached.cacheStats.misses).toBe(stats.misses + 1);
  });
});

describe(`${ResultsService.name}: charts (issue 20)`, () => {
  type Group = { key: string; stats?: Record<string, unknown>; value?: unknown; answers?: unknown[] };
  type Compared = { by: { by: string }; groups: Group[]; capped?: { limit: number; groups: number; other: Group } };
  const item = (out: Payload, id: number) =>
    out.items.find((i) => i.item_id === id) as Payload['items'][number] & {
      comparison: Compared | null;
      comparisons: Compared[];
    };

  it('bins whole numbers in whole, round bins: adults 1, 2, 3, 6 in six bins of one', async () => {
    const { caller, project, ids } = fixture;
    const out = payloadOf(
      await service.results(request({ caller, project_id: project.id, item_ids: [ids.adults] }), ctx),
    );
    const adults = item(out, ids.adults);
    expect(adults.integer_bins).toBe(true);
    expect(adults.histogram).toEqual([
      { lower: 1, upper: 2, count: 1 },
      { lower: 2, upper: 3, count: 1 },
      { lower: 3, upper: 4, count: 1 },
      { lower: 4, upper: 5, count: 0 },
      { lower: 5, upper: 6, count: 0 },
      { lower: 6, upper: 7, count: 1 },
    ]);
    // The quartiles the box plot is drawn from (inclusive quantiles of 1, 2, 3, 6).
    expect(adults.stats).toMatchObject({ quartiles: [1.75, 2.5, 3.75] });
  });

  it('answers every comparison of the request, the first also as `comparison`', async () => {
    const { caller, project, ids } = fixture;
    const out = payloadOf(
      await service.results(
        request({
          caller,
          project_id: project.id,
          comparisons_json: JSON.stringify([{ by: 'question', item_id: ids.fuel }, { by: 'collector' }]),
        }),
        ctx,
      ),
    );
    const adults = item(out, ids.adults);
    expect(adults.comparisons).toHaveLength(2);
    expect(adults.comparison).toEqual(adults.comparisons[0]);
    // By fuel: wood (1 and 2), gas (3); the response without fuel is in no group.
    expect(adults.comparisons[0]!.groups).toEqual([
      expect.objectContaining({ key: String(ids.wood), stats: expect.objectContaining({ count: 2, sum: 3 }) }),
      expect.objectContaining({ key: String(ids.gas), stats: expect.objectContaining({ count: 1, sum: 3 }) }),
    ]);
    // By collector: the one collector who uploaded all four.
    expect(adults.comparisons[1]).toMatchObject({ by: { by: 'collector' } });
    expect(adults.comparisons[1]!.groups).toEqual([
      expect.objectContaining({ key: String(caller.user_id), stats: expect.objectContaining({ count: 4, sum: 12 }) }),
    ]);
    expect(item(out, ids.fuel).comparisons[1]!.groups).toEqual([
      {
        key: String(caller.user_id),
        answers: [
          { choice_id: ids.wood, count: 2 },
          { choice_id: ids.gas, count: 1 },
        ],
      },
    ]);
  });

  it('uses the requested aggregator per item and per group, count where the type does not take it', async () => {
    const { caller, project, ids } = fixture;
    const out = payloadOf(
      await service.results(
        request({
          caller,
          project_id: project.id,
          aggregator: 'sum',
          comparisons_json: JSON.stringify([{ by: 'question', item_id: ids.fuel }]),
        }),
        ctx,
      ),
    );
    expect((out as unknown as { meta: { aggregator: string } }).meta.aggregator).toBe('sum');
    const adults = item(out, ids.adults);
    expect([adults.aggregator, adults.value]).toEqual(['sum', 12]);
    expect(adults.comparison!.groups.map((g) => g.value)).toEqual([3, 3]);
    const fuel = item(out, ids.fuel);
    expect([fuel.aggregator, fuel.value]).toEqual(['count', 3]);
    const avg = payloadOf(
      await service.results(
        request({ caller, project_id: project.id, item_ids: [ids.adults], aggregator: 'avg' }),
        ctx,
      ),
    );
    expect(item(avg, ids.adults).value).toBe(3);
  });

  it('keeps the largest groups of a comparison past its limit and sums the rest as one other group', async () => {
    const { caller, project, ids } = fixture;
    const out = payloadOf(
      await service.results(
        request({
          caller,
          project_id: project.id,
          comparisons_json: JSON.stringify([{ by: 'question', item_id: ids.fuel, limit: 1 }]),
        }),
        ctx,
      ),
    );
    const adults = item(out, ids.adults).comparison!;
    expect(adults.groups).toEqual([
      expect.objectContaining({ key: String(ids.wood), stats: expect.objectContaining({ count: 2 }) }),
    ]);
    expect(adults.capped).toMatchObject({
      limit: 1,
      groups: 2,
      other: { key: '', stats: expect.objectContaining({ count: 1, sum: 3 }) },
    });
    // Without a limit (50 by default) the two groups are both there and nothing says capped.
    const all = payloadOf(
      await service.results(
        request({
          caller,
          project_id: project.id,
          item_ids: [ids.adults],
          comparisons_json: JSON.stringify([{ by: 'question', item_id: ids.fuel }]),
        }),
        ctx,
      ),
    );
    expect(item(all, ids.adults).comparison).not.toHaveProperty('capped');
  });

  it('refuses an unknown aggregator, a comparison by a question that is not a choice of the form, and a bad limit', async () => {
    const { caller, project, ids } = fixture;
    const ask = (fields: Partial<results.ResultsRequest>) =>
      service.results(request({ caller, project_id: project.id, ...fields }), ctx);
    await expect(ask({ aggregator: 'median' })).rejects.toMatchObject({
      code: '400.1',
      fields: { aggregator: ['Choose one of sum, avg, count, min, max, stddev, var.'] },
    });
    for (const itemId of [999_999, ids.adults])
      await expect(
        ask({ comparisons_json: JSON.stringify([{ by: 'site' }, { by: 'question', item_id: itemId }]) }),
      ).rejects.toMatchObject({
        code: '400.1',
        fields: { 'comparisons.1.item_id': [expect.stringContaining(`${itemId}`)] },
      });
    await expect(ask({ comparisons_json: JSON.stringify([{ by: 'site', limit: 100_000 }]) })).rejects.toMatchObject({
      code: '400.1',
    });
  });

  it('answers text questions with their latest answers and most frequent words, bounded', async () => {
    const { caller } = fixture;
    const project = await newProject(peers, caller, 'Texts');
    const schema = project.project_hierarchy[0]!.schema_id;
    const b = addBlock(newSchemaBody('S'), { en: 'Notes' });
    const note = addItem(b.body, b.id, 'open', 'en', 'Note');
    const doc = await clients.forms.getSchemaDocument({ caller, schema_id: schema });
    await clients.forms.saveSchemaDocument({
      caller,
      schema_id: schema,
      body_json: JSON.stringify(note.body),
      revision: doc.revision,
      name: '',
    });
    const notes = Array.from({ length: 25 }, (_, i) =>
      i % 2 === 0 ? `Water pump broken ${100 + i}` : `The water is clean`,
    );
    for (const [i, text] of notes.entries())
      await clients.responses.upload({
        caller,
        project_id: project.id,
        action: 'save',
        payload_json: JSON.stringify({
          sampler_schema: schema,
          device_id: 'd',
          response_id: `${project.id}-${schema}-1-d-${i}`,
          data: { '0': { [note.id]: text } },
        }),
      });
    const end = Date.now() + 30_000;
    while ((await counts.counts({ project_id: project.id })).all?.total !== notes.length) {
      if (Date.now() > end) throw new Error('the responses never reached the results');
      await new Promise((r) => setTimeout(r, 200));
    }
    const out = payloadOf(await service.results(request({ caller, project_id: project.id }), ctx));
    const open = out.items[0] as unknown as { samples: { text: string }[]; words: { word: string; count: number }[] };
    expect(open.samples).toHaveLength(20);
    for (const s of open.samples) expect(notes).toContain(s.text);
    // "water" in all 25, then "broken" and "pump" in 13, "clean" in 12; "the" and "is" are not counted.
    expect(open.words.slice(0, 4)).toEqual([
      { word: 'water', count: 25 },
      { word: 'broken', count: 13 },
      { word: 'pump', count: 13 },
      { word: 'clean', count: 12 },
    ]);
    expect(open.words.map((w) => w.word)).not.toContain('the');
    expect(
      open.words.filter((w) => /^\d+$/.test(w.word)),
      'bare numbers are not words',
    ).toEqual([]);
    expect(open.words.length).toBeLessThanOrEqual(30);
  });

  it("answers each text question's latest answers newest first, even one answered only long ago", async () => {
    // 225 responses, one a minute: Note answered in each, Rare only in the two oldest. The latest 200 responses hold
    // none of Rare's answers, so they are read on their own.
    const { caller } = fixture;
    const project = await newProject(peers, caller, 'Latest texts');
    const schema = project.project_hierarchy[0]!.schema_id;
    const b = addBlock(newSchemaBody('S'), { en: 'Notes' });
    const note = addItem(b.body, b.id, 'open', 'en', 'Note');
    const rare = addItem(note.body, b.id, 'open', 'en', 'Rare');
    const doc = await clients.forms.getSchemaDocument({ caller, schema_id: schema });
    await clients.forms.saveSchemaDocument({
      caller,
      schema_id: schema,
      body_json: JSON.stringify(rare.body),
      revision: doc.revision,
      name: '',
    });
    const N = 225;
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    for (let from = 0; from < N; from += 25)
      await Promise.all(
        Array.from({ length: Math.min(25, N - from) }, (_, k) => {
          const i = from + k;
          return clients.responses.upload({
            caller,
            project_id: project.id,
            action: 'save',
            payload_json: JSON.stringify({
              sampler_schema: schema,
              device_id: 'd',
              response_id: `${project.id}-${schema}-1-d-${i}`,
              time_created: at(i),
              time_updated: at(i),
              data: { '0': { [note.id]: `note ${i}`, ...(i < 2 ? { [rare.id]: `rare ${i}` } : {}) } },
            }),
          });
        }),
      );
    const end = Date.now() + 30_000;
    while ((await counts.counts({ project_id: project.id })).all?.total !== N) {
      if (Date.now() > end) throw new Error('the responses never reached the results');
      await new Promise((r) => setTimeout(r, 200));
    }
    const out = payloadOf(await service.results(request({ caller, project_id: project.id }), ctx));
    const samples = (id: number) =>
      (out.items.find((i) => (i as { item_id: number }).item_id === id) as unknown as { samples: { text: string }[] })
        .samples;
    expect(samples(note.id).map((x) => x.text)).toEqual(Array.from({ length: 20 }, (_, k) => `note ${N - 1 - k}`));
    expect(samples(rare.id).map((x) => x.text)).toEqual(['rare 1', 'rare 0']);
  });
});
