// Results correctness: a known data set uploaded through the API, through the stream into ClickHouse, and every
// statistic checked against values computed here independently; filters by site, completion, collector, date range
// and question answers; who may see results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem } from '@fieldwork/sampler';
import { seedDemoData, startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await t?.stop();
});

// Independent statistics.
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => sum(xs) / xs.length;
const sampleVar = (xs: number[]) => sum(xs.map((x) => (x - mean(xs)) ** 2)) / (xs.length - 1);
/** Linear interpolation between closest ranks, (n-1)p (Excel's PERCENTILE.INC). */
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * p;
  const lo = Math.floor(pos);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (pos - lo);
}

describe('results', () => {
  it('answers every statistic of a known data set, filtered, and only to those allowed', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
    const area = addItem(b.body, b.id, 'number', 'en', 'Area');
    let body = updateItem(area.body, area.id, {
      options: {
        ...area.body.entities.items[area.id]!.options,
        allowDecimal: true,
        minimum: { active: true, value: 0 },
        maximum: { active: true, value: 1000 },
      },
    });
    const crop = addItem(body, b.id, 'choice', 'en', 'Crop');
    const maize = addChoice(crop.body, crop.id, 'en', 'Maize');
    const beans = addChoice(maize.body, crop.id, 'en', 'Beans');
    const rice = addChoice(beans.body, crop.id, 'en', 'Rice');
    const visit = addItem(rice.body, b.id, 'date', 'en', 'Visit');
    const note = addItem(visit.body, b.id, 'open', 'en', 'Note');
    body = note.body;
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Results A', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...body, revision: 1 } })).status,
    ).toBe(200);
    const north = (
      await api<Json>('POST', `project/${p.id}/sites/`, {
        token: owner.access,
        body: { name: 'North', geotag: point(1, 1) },
      })
    ).body.id as number;
    const south = p.sites[0].id as number;
    const collector = await api<{ user_id: number }>('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'col@results.test', password: 'results pass 1', projectId: p.id, collector: true },
    });
    await acceptInvitation(t, api, 'col@results.test', 'results pass 1');
    const col = await login(api, 'col@results.test', 'results pass 1');
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'res@results.test', password: 'results pass 1', projectId: p.id, researcher: true },
    });
    await acceptInvitation(t, api, 'res@results.test', 'results pass 1');
    const researcher = await login(api, 'res@results.test', 'results pass 1');
    expect(collector.status).toBe(200);

    const choices = [maize.id, beans.id, rice.id];
    const northGroup = (
      await api<Json>('POST', `project/${p.id}/groups/`, {
        token: owner.access,
        body: { name: 'North group', site: north },
      })
    ).body.id as number;
    const northTeam = (
      await api<Json>('POST', `project/${p.id}/teams/`, {
        token: owner.access,
        body: { name: 'North team', group: northGroup },
      })
    ).body.id as number;
    const rows: {
      id: string;
      area: number;
      crop: number;
      visit: string;
      site: number;
      group?: number;
      team?: number;
      completed: boolean;
      user: number;
      created: string;
      note?: string;
    }[] = [];
    for (let i = 0; i < 60; i++) {
      const r = {
        id: `${p.id}-${schema}-1-r-${i}`,
        area: Math.round(((i * 37) % 101) * 2.5 * 100) / 100,
        crop: choices[(i * 7) % 3]!,
        visit: `2026-0${1 + (i % 6)}-${String(1 + (i % 27)).padStart(2, '0')}`,
        // The collector files under their own site (the default one); the owner under any.
        site: i % 3 === 0 && i >= 10 ? north : south,
        // The north group and team only under the north site (a group of another site is refused).
        ...(i % 6 === 0 && i >= 10 ? { group: northGroup } : {}),
        ...(i % 12 === 0 && i >= 10 ? { team: northTeam } : {}),
        completed: i % 4 === 0,
        user: i < 10 ? col.user.id : owner.user.id,
        created: new Date(Date.UTC(2026, 2, 1 + (i % 30))).toISOString(),
        ...(i % 5 === 0 ? { note: `note ${i}` } : {}),
      };
      const up = await api<Json>('POST', `project/${p.id}/response/${r.completed ? 'complete/' : ''}`, {
        token: i < 10 ? col.access : owner.access,
        body: {
          sampler_schema: schema,
          response_id: r.id,
          site: r.site,
          ...(r.group ? { group: r.group } : {}),
          ...(r.team ? { team: r.team } : {}),
          time_created: r.created,
          time_updated: new Date(Date.parse(r.created) + 60_000).toISOString(),
          data: {
            '0': {
              [area.id]: r.area,
              [crop.id]: [r.crop],
              [visit.id]: r.visit,
              ...(r.note ? { [note.id]: r.note } : {}),
            },
          },
        },
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      rows.push(r);
    }
    // An edit (the newer version counts) and a delete (it drops out).
    rows[1]!.area = 999.5;
    await api('POST', `project/${p.id}/response/`, {
      token: col.access,
      body: {
        sampler_schema: schema,
        response_id: rows[1]!.id,
        site: rows[1]!.site,
        time_updated: new Date().toISOString(),
        data: { '0': { [area.id]: 999.5, [crop.id]: [rows[1]!.crop], [visit.id]: rows[1]!.visit } },
      },
    });
    await api('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: {
        sampler_schema: schema,
        response_id: rows[59]!.id,
        deleted: true,
        time_updated: new Date().toISOString(),
        data: { '0': { [area.id]: rows[59]!.area } },
      },
    });
    const live = rows.slice(0, 59);

    const results = (filters: Json = {}, who = owner, path = `schema/${schema}/`) =>
      api<Json>('POST', `project/${p.id}/results/${path}`, { token: who.access, body: { filters } });
    // Wait until ClickHouse has the last change.
    let all = await results();
    for (
      let i = 0;
      i < 100 && !(all.body.levels?.[0]?.total_filtered_responses === 59 && all.body.items?.[0]?.stats.max === 999.5);
      i++
    ) {
      await new Promise((r) => setTimeout(r, 200));
      all = await results();
    }
    expect(all.status, JSON.stringify(all.body)).toBe(200);

    const check = (payload: Json, subset: typeof rows) => {
      const byItem = new Map<number, Json>(payload.items.map((it: Json) => [it.item_id, it]));
      const xs = subset.map((r) => r.area);
      const a = byItem.get(area.id)!;
      expect(a.stats.count).toBe(xs.length);
      expect(a.stats.sum).toBeCloseTo(sum(xs), 6);
      expect(a.stats.avg).toBeCloseTo(mean(xs), 6);
      expect(a.stats.min).toBe(Math.min(...xs));
      expect(a.stats.max).toBe(Math.max(...xs));
      expect(a.stats.var).toBeCloseTo(sampleVar(xs), 4);
      expect(a.stats.stddev).toBeCloseTo(Math.sqrt(sampleVar(xs)), 6);
      expect(a.stats.quartiles[0]).toBeCloseTo(percentile(xs, 0.25), 6);
      expect(a.stats.quartiles[1]).toBeCloseTo(percentile(xs, 0.5), 6);
      expect(a.stats.quartiles[2]).toBeCloseTo(percentile(xs, 0.75), 6);
      const half95 = (1.959964 * Math.sqrt(sampleVar(xs))) / Math.sqrt(xs.length);
      expect(a.stats.ci95[0]).toBeCloseTo(mean(xs) - half95, 6);
      expect(a.stats.ci95[1]).toBeCloseTo(mean(xs) + half95, 6);
      expect(sum(a.histogram.map((h: Json) => h.count))).toBeCloseTo(xs.length, 6);
      const c = byItem.get(crop.id)!;
      expect(c.stats.count).toBe(subset.length);
      expect(c.answers).toEqual(
        choices.map((id) =>
          expect.objectContaining({ choice_id: id, count: subset.filter((r) => r.crop === id).length }),
        ),
      );
      const d = byItem.get(visit.id)!;
      const dates = subset.map((r) => r.visit).sort();
      expect(d.stats).toEqual({ count: subset.length, min: dates[0], max: dates[dates.length - 1] });
      expect(byItem.get(note.id)!.stats.count).toBe(subset.filter((r) => r.note).length);
    };
    check(all.body, live);
    const created = live.map((r) => r.created).sort();
    expect(all.body.levels[0]).toMatchObject({
      schema_id: schema,
      total_filtered_responses: 59,
      first_response: created[0],
      last_response: created[created.length - 1],
    });

    // Filters, each against the same computation on the matching subset.
    const filtered = async (filters: Json, subset: typeof rows) => {
      const r = await results(filters);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.levels[0].total_filtered_responses).toBe(subset.length);
      check(r.body, subset);
    };
    await filtered(
      { site: north },
      live.filter((r) => r.site === north),
    );
    await filtered(
      { showOnlyCompleted: true },
      live.filter((r) => r.completed),
    );
    await filtered(
      { collector: col.user.id },
      live.filter((r) => r.user === col.user.id),
    );
    await filtered(
      { createdBy: owner.user.id },
      live.filter((r) => r.user === owner.user.id),
    );
    await filtered(
      { group: northGroup },
      live.filter((r) => r.group === northGroup),
    );
    await filtered(
      { team: [northTeam] },
      live.filter((r) => r.team === northTeam),
    );
    const from = Date.UTC(2026, 2, 5) / 1000;
    const to = Date.UTC(2026, 2, 12) / 1000;
    await filtered(
      { date_ranges: [{ entity: 'response', dateType: 'time_created', startDateTime: from, endDateTime: to }] },
      live.filter((r) => Date.parse(r.created) / 1000 >= from && Date.parse(r.created) / 1000 <= to),
    );
    await filtered(
      { filters: [{ question: area.id, operator: '>=', value: 100 }] },
      live.filter((r) => r.area >= 100),
    );
    await filtered(
      { filters: [{ question: crop.id, operator: 'in', value: [beans.id] }] },
      live.filter((r) => r.crop === beans.id),
    );

    // Comparisons: by site, by a choice question, and by month in a time zone west of UTC.
    const compare = (comparisons: Json[], extra: Json = {}) =>
      api<Json>('POST', `project/${p.id}/results/schema/${schema}/`, {
        token: owner.access,
        body: { comparisons, ...extra },
      });
    const areaOf = (payload: Json) => payload.items.find((i: Json) => i.item_id === area.id);
    const bySite = areaOf((await compare([{ by: 'site' }])).body).comparison;
    expect(bySite.groups.map((g: Json) => g.key).sort()).toEqual([String(north), String(south)].sort());
    for (const g of bySite.groups) {
      const xs = live.filter((r) => String(r.site) === g.key).map((r) => r.area);
      expect(g.stats.count).toBe(xs.length);
      expect(g.stats.avg).toBeCloseTo(mean(xs), 6);
      expect(g.stats.stddev).toBeCloseTo(Math.sqrt(sampleVar(xs)), 6);
    }
    const byCrop = (await compare([{ by: 'question', item_id: crop.id }])).body;
    for (const g of areaOf(byCrop).comparison.groups) {
      const xs = live.filter((r) => String(r.crop) === g.key).map((r) => r.area);
      expect([g.stats.count, g.stats.sum]).toEqual([xs.length, expect.closeTo(sum(xs), 6)]);
    }
    const cropByCrop = byCrop.items.find((i: Json) => i.item_id === crop.id).comparison.groups;
    expect(cropByCrop).toHaveLength(3);
    const byMonth = areaOf((await compare([{ by: 'period', period: 'month' }], { time_zone: 'America/New_York' })).body)
      .comparison.groups;
    // Midnight UTC on 1 March is still February in New York.
    const feb = live.filter((r) => r.created.startsWith('2026-03-01')).length;
    expect(byMonth.map((g: Json) => [String(g.key).slice(0, 7), g.stats.count])).toEqual([
      ['2026-02', feb],
      ['2026-03', live.length - feb],
    ]);
    const byYear = areaOf((await compare([{ by: 'period', period: 'millennium' }])).body).comparison.groups;
    expect(byYear.map((g: Json) => [g.key, g.stats.count])).toEqual([['2000', live.length]]);
    expect((await compare([{ by: 'question' }])).status).toBe(400);
    expect((await compare([{ by: 'weather' }])).status).toBe(400);
    expect((await compare([], { time_zone: "UTC'; DROP TABLE x" })).status).toBe(400);
    const bins = areaOf((await compare([], { buckets: 4 })).body).histogram;
    // At most about 4 bins of a round width (1, 2 or 5 × 10^k) from a multiple of it: the areas run from 0 to 999.5,
    // a quarter of that is 249.875, so bins of 500 from 0: [0, 500) and [500, 1000).
    const areas = live.map((r) => r.area);
    expect(Math.min(...areas)).toBe(0);
    expect(Math.max(...areas)).toBe(999.5);
    expect(bins).toEqual([
      { lower: 0, upper: 500, count: areas.filter((a) => a < 500).length },
      { lower: 500, upper: 1000, count: areas.filter((a) => a >= 500).length },
    ]);
    expect(sum(bins.map((h: Json) => h.count))).toBe(live.length);

    // The response ids the filters keep.
    const idsOf = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/responses/`, {
      token: owner.access,
      body: { filters: { site: north } },
    });
    expect([...idsOf.body.response_ids].sort()).toEqual(
      live
        .filter((r) => r.site === north)
        .map((r) => r.id)
        .sort(),
    );

    // One item, and a block.
    const one = await results({}, owner, `schema/${schema}/item/`);
    expect(one.body.items.length).toBe(4);
    const only = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/item/`, {
      token: owner.access,
      body: { item_ids: [crop.id] },
    });
    expect(only.body.items.map((i: Json) => i.item_id)).toEqual([crop.id]);
    expect((await results({}, owner, `schema/${schema}/block/${b.id}/`)).body.items).toHaveLength(4);
    // Labels travel with the results, so that a page without the form can name things.
    const cropItem = only.body.items[0];
    expect(cropItem.name.en).toBe('Crop');
    expect(cropItem.answers.map((a: Json) => a.name.en)).toEqual(['Maize', 'Beans', 'Rice']);

    // Sharing one item: a token, then its results with no login, and nothing but that item; shared with a filter, the
    // link answers that filter's results.
    const shared = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/item/${area.id}/token/`, {
      token: owner.access,
      body: {},
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    const pub = await api<Json>('POST', `item-results/${shared.body.token}/`, { body: {} });
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    expect(pub.body.items.map((i: Json) => i.item_id)).toEqual([area.id]);
    expect(pub.body.items[0].stats.count).toBe(live.length);
    const sharedNorth = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/item/${area.id}/token/`, {
      token: owner.access,
      body: { filters: { site: north } },
    });
    const pubNorth = await api<Json>('POST', `item-results/${sharedNorth.body.token}/`, { body: {} });
    expect(pubNorth.body.items[0].stats.count).toBe(live.filter((r) => r.site === north).length);
    expect((await api('POST', `item-results/${shared.body.token.slice(0, -2)}xx/`, { body: {} })).status).toBe(404);
    expect((await api('POST', `item-results/${owner.access}/`, { body: {} })).status).toBe(404);
    // The share token is no access token, and only those who see the results may share.
    expect((await api('GET', `project/${p.id}/`, { token: shared.body.token })).status).toBe(401);
    expect(
      (
        await api('POST', `project/${p.id}/results/schema/${schema}/item/${area.id}/token/`, {
          token: col.access,
          body: {},
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api('POST', `project/${p.id}/results/schema/${schema}/item/999999/token/`, {
          token: owner.access,
          body: {},
        })
      ).status,
    ).toBe(404);

    // The project home and the summary by site count from ClickHouse.
    const home = await api<Json>('GET', `project/${p.id}/home/`, { token: owner.access });
    expect(home.body).toMatchObject({
      total_responses: live.length,
      complete_responses: live.filter((r) => r.completed).length,
    });
    const bySiteSummary = (await api<Json>('GET', `project/${p.id}/summary-by-site/`, { token: owner.access })).body
      .results;
    expect(bySiteSummary.find((x: Json) => x.site_id === north).total_responses).toBe(
      live.filter((r) => r.site === north).length,
    );

    // Advanced results: formulas over aggregates, with thresholds, over the filtered responses.
    const adv = (method: string, path: string, body?: Json, who: Session = owner) =>
      api<Json>(method, `project/${p.id}/advanced_results/${path}`, { token: who.access, body });
    const avgArea = await adv('POST', '', {
      name: 'Mean area',
      formula: `=AVERAGE(Q${b.id}_${area.id})`,
      threshold_value_lower: 0,
      threshold_value_upper: 10,
      show_on_project_summary: true,
      editor_state: { v: 1 },
    });
    expect(avgArea.status, JSON.stringify(avgArea.body)).toBe(201);
    expect(avgArea.body.editor_state).toEqual({ v: 1 });
    const perCrop = await adv('POST', '', {
      name: 'Area per crop answer',
      formula: `=SUM(Q${b.id}_${area.id}) / COUNT(Q${b.id}_${crop.id})`,
    });
    expect(perCrop.status).toBe(201);
    expect((await adv('POST', '', { name: 'Broken', formula: '=SUM(' })).body.formula[0]).toMatch(
      /Line 1, col 6: expected/,
    );
    expect((await adv('POST', '', { name: '', formula: '=1' })).body.name).toEqual(['This field is required.']);
    expect(
      (await adv('POST', '', { name: 'x', formula: '=1', threshold_value_lower: 5, threshold_value_upper: 1 })).status,
    ).toBe(400);
    expect((await adv('POST', '', { name: 'x', formula: '=1' }, col)).status).toBe(403);
    const missing = await adv('POST', '', { name: 'Missing', formula: `=SUM(Q${b.id}_99999)` });
    const listed = await adv('POST', 'list/', { filters: { site: north } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const northLive = live.filter((r) => r.site === north);
    const byName = new Map(listed.body.results.map((r: Json) => [r.name, r]));
    const meanArea = byName.get('Mean area') as Json;
    expect(meanArea.value).toBeCloseTo(sum(northLive.map((r) => r.area)) / northLive.length, 6);
    expect(meanArea.status).toBe(meanArea.value > 10 ? 'above' : 'within');
    expect((byName.get('Area per crop answer') as Json).value).toBeCloseTo(
      sum(northLive.map((r) => r.area)) / northLive.filter((r) => r.crop).length,
      6,
    );
    expect((byName.get('Missing') as Json).error).toBe('Invalid Reference!');
    const edited = await adv('PUT', `${avgArea.body.id}/`, {
      name: 'Mean area',
      formula: `=MAX(Q${b.id}_${area.id})`,
      threshold_value_upper: 1e9,
    });
    expect(edited.status).toBe(200);
    const after = await adv('POST', 'list/', {});
    expect(after.body.results.find((r: Json) => r.id === avgArea.body.id)).toMatchObject({
      value: Math.max(...live.map((r) => r.area)),
      status: 'within',
    });
    expect((await adv('DELETE', `${missing.body.id}/`)).status).toBe(204);
    expect((await adv('DELETE', `${missing.body.id}/`)).status).toBe(404);
    expect((await adv('GET', 'edit_list/')).body.results.map((r: Json) => r.name)).toEqual([
      'Mean area',
      'Area per crop answer',
    ]);
    expect((await adv('GET', 'edit_list/', undefined, col)).status).toBe(403);

    // Who may see them: the researcher yes; a collector without read_sites no; bad input is refused.
    expect((await results({}, researcher)).status).toBe(200);
    expect((await results({}, col)).status).toBe(403);
    expect(
      (await api('POST', `project/${p.id}/results/`, { token: owner.access, body: { timing_column: 'time_exploded' } }))
        .status,
    ).toBe(400);
    expect((await results({ filters: [{ question: area.id, operator: 'LIKE', value: 1 }] })).status).toBe(400);
    expect((await api('POST', `project/${p.id}/results/`, { body: {} })).status).toBe(401);
  }, 120_000);

  it('answers a shared item only with the view it was shared with: no filter on another question, no breakdown by collector or site', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
    const score = addItem(b.body, b.id, 'number', 'en', 'Score');
    const secret = addItem(score.body, b.id, 'open', 'en', 'Private note');
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Oracle', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...secret.body, revision: 1 } }))
        .status,
    ).toBe(200);
    const north = (
      await api<Json>('POST', `project/${p.id}/sites/`, {
        token: owner.access,
        body: { name: 'North', geotag: point(1, 1) },
      })
    ).body.id as number;
    // Four responses: scores 1..4; the private notes of two say "HIV positive", filed under two sites.
    const rows = [
      { score: 1, note: 'HIV positive', site: north },
      { score: 2, note: 'fine', site: north },
      { score: 3, note: 'HIV positive', site: p.sites[0].id as number },
      { score: 4, note: 'fine', site: p.sites[0].id as number },
    ];
    for (const [i, r] of rows.entries()) {
      const up = await api('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: {
          sampler_schema: schema,
          response_id: `${p.id}-${schema}-1-o-${i}`,
          site: r.site,
          data: { '0': { [score.id]: r.score, [secret.id]: r.note } },
        },
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
    }
    // The whole item (all four) is what is shared.
    const shared = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/item/${score.id}/token/`, {
      token: owner.access,
      body: {},
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    const read = (body: Json) => api<Json>('POST', `item-results/${shared.body.token}/`, { body });
    let whole = await read({});
    for (let i = 0; i < 100 && whole.body.items?.[0]?.stats.count !== 4; i++) {
      await new Promise((r) => setTimeout(r, 200));
      whole = await read({});
    }
    expect(whole.body.items[0].stats).toMatchObject({ count: 4, sum: 10, min: 1, max: 4 });
    expect(await read({ filters: {} })).toMatchObject({
      status: 200,
      body: { items: [{ stats: { count: 4, sum: 10 } }] },
    });

    // A `contains` on the free-text question, a collector or a site filter, a breakdown by collector or site: refused,
    // with nothing of the item in the answer.
    const refusal = (fields: string) => ({
      non_field_errors: [
        `A shared item answers only with the view it was shared with; these cannot be changed: ${fields}.`,
      ],
    });
    const probes: [Json, string][] = [
      [{ filters: { filters: [{ question: secret.id, operator: 'contains', value: 'HIV' }] } }, 'filters'],
      [{ filters: { collector: [owner.user.id] } }, 'filters'],
      [{ filters: { site: [north] } }, 'filters'],
      [{ comparisons: [{ by: 'collector' }] }, 'comparisons'],
      [{ comparisons: [{ by: 'site' }] }, 'comparisons'],
      [{ comparisons: [{ by: 'question', item_id: secret.id }] }, 'comparisons'],
      [{ buckets: 4, time_zone: 'Asia/Tokyo' }, 'buckets, time_zone'],
    ];
    for (const [body, fields] of probes) {
      const r = await read(body);
      expect({ asked: body, status: r.status, answer: r.body }).toEqual({
        asked: body,
        status: 400,
        answer: refusal(fields),
      });
    }

    // Shared with a filter (north only), the link answers north's aggregate; asking for the other site is refused, and
    // sending the very filter shared changes nothing.
    const northOnly = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/item/${score.id}/token/`, {
      token: owner.access,
      body: { filters: { site: [north], collector: [] } },
    });
    expect(northOnly.status, JSON.stringify(northOnly.body)).toBe(200);
    const readNorth = (body: Json) => api<Json>('POST', `item-results/${northOnly.body.token}/`, { body });
    expect(await readNorth({})).toMatchObject({
      status: 200,
      body: { items: [{ stats: { count: 2, sum: 3 } }], levels: [{ total_filtered_responses: 2 }] },
    });
    expect(await readNorth({ filters: { site: [north] } })).toMatchObject({
      status: 200,
      body: { items: [{ stats: { count: 2, sum: 3 } }] },
    });
    expect(await readNorth({ filters: { site: [p.sites[0].id] } })).toMatchObject({
      status: 400,
      body: refusal('filters'),
    });
    // A view too large for a link is refused when sharing, not cut.
    const huge = { filters: { filters: [{ question: secret.id, operator: 'contains', value: 'x'.repeat(600) }] } };
    expect(
      await api('POST', `project/${p.id}/results/schema/${schema}/item/${score.id}/token/`, {
        token: owner.access,
        body: huge,
      }),
    ).toMatchObject({
      status: 400,
      body: {
        non_field_errors: [
          'This view is too large to share (more than 500 characters of filters and options): remove some filters.',
        ],
      },
    });
  });

  it('answers a deleted project’s shared item as not found, and again once the project is restored before its purge', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
    const score = addItem(b.body, b.id, 'number', 'en', 'Score');
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Shared then deleted', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    const as = { token: owner.access };
    expect((await api('PUT', `samplerschema/${schema}/`, { ...as, body: { ...score.body, revision: 1 } })).status).toBe(
      200,
    );
    const up = await api('POST', `project/${p.id}/response/`, {
      ...as,
      body: { sampler_schema: schema, response_id: `${p.id}-${schema}-1-del`, data: { '0': { [score.id]: 7 } } },
    });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const shared = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/item/${score.id}/token/`, {
      ...as,
      body: {},
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    const read = () => api<Json>('POST', `item-results/${shared.body.token}/`, { body: {} });
    let live = await read();
    for (let i = 0; i < 100 && live.body.items?.[0]?.stats.count !== 1; i++) {
      await new Promise((r) => setTimeout(r, 200));
      live = await read();
    }
    expect(live).toMatchObject({ status: 200, body: { items: [{ stats: { count: 1, sum: 7 } }] } });

    const status = (project_state: string) =>
      api('POST', `project/${p.id}/status/`, { ...as, body: { project_state } });
    expect((await status('D')).status).toBe(200);
    // Deleted: the link answers as an unknown link does, with nothing of the item.
    expect(await read()).toEqual(expect.objectContaining({ status: 404, body: { detail: 'Not found.' } }));
    // Restored before the purge: the link answers again.
    expect((await status('P')).status).toBe(200);
    expect(await read()).toMatchObject({ status: 200, body: { items: [{ stats: { count: 1, sum: 7 } }] } });
  });

  it('lists profiles by their lookup answers and answers one profile with the responses below it', async () => {
    // Level 0: households with an identifier (primary key) and a name (lookup); level 1: visits with a number.
    const hb = addBlock(newSchemaBody('S'), { en: 'Household' });
    const ident = addItem(hb.body, hb.id, 'number', 'en', 'Identifier');
    const named = addItem(
      updateItem(ident.body, ident.id, {
        options: {
          ...ident.body.entities.items[ident.id]!.options,
          isPrimaryKey: true,
          maximum: { active: true, value: 100000 },
        },
      }),
      hb.id,
      'open',
      'en',
      'Name',
    );
    const household = updateItem(named.body, named.id, {
      options: { ...named.body.entities.items[named.id]!.options, isLookupQuestion: true },
    });
    const vb = addBlock(newSchemaBody('S'), { en: 'Visit' });
    const spent = addItem(vb.body, vb.id, 'number', 'en', 'Spent');
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Profiles', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const h = await api<Json>('POST', `project/${p.id}/hierarchy/`, {
      token: owner.access,
      body: {
        is_hierarchical: true,
        project_hierarchy: [p.project_hierarchy[0], { level: 1, name: 'Visits', schema_id: 0 }],
      },
    });
    const [top, visits] = h.body.project_hierarchy.map((l: Json) => l.schema_id as number);
    expect(
      (await api('PUT', `samplerschema/${top}/`, { token: owner.access, body: { ...household, revision: 1 } })).status,
    ).toBe(200);
    expect(
      (await api('PUT', `samplerschema/${visits}/`, { token: owner.access, body: { ...spent.body, revision: 1 } }))
        .status,
    ).toBe(200);
    const up = (b: Json) => api<Json>('POST', `project/${p.id}/response/`, { token: owner.access, body: b });
    const homes = { ana: `${p.id}-${top}-1-d-1`, ben: `${p.id}-${top}-1-d-2` };
    expect(
      (await up({ sampler_schema: top, response_id: homes.ana, data: { '0': { [ident.id]: 11, [named.id]: 'Ana' } } }))
        .status,
    ).toBe(201);
    expect(
      (await up({ sampler_schema: top, response_id: homes.ben, data: { '0': { [ident.id]: 12, [named.id]: 'Ben' } } }))
        .status,
    ).toBe(201);
    const spentBy = { ana: [10, 20, 35], ben: [7, 8] };
    let n = 0;
    for (const [who, xs] of Object.entries(spentBy)) {
      for (const x of xs) {
        const r = await up({
          sampler_schema: visits,
          response_id: `${p.id}-${visits}-1-d-${++n}`,
          parent_id: homes[who as 'ana'],
          data: { '0': { [spent.id]: x } },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
      }
    }
    let lookups = await api<Json>('GET', `project/${p.id}/results/lookups/`, { token: owner.access });
    for (let i = 0; i < 100 && lookups.body.results?.[0]?.responses.length !== 2; i++) {
      await new Promise((res) => setTimeout(res, 200));
      lookups = await api<Json>('GET', `project/${p.id}/results/schema/${top}/lookups/`, { token: owner.access });
    }
    expect(lookups.body.results).toHaveLength(1);
    expect(lookups.body.results[0].responses.map((r: Json) => [r.response_id, r.key, r.display_name]).sort()).toEqual([
      [homes.ana, '11', '11 · Ana'],
      [homes.ben, '12', '12 · Ben'],
    ]);
    const profile = (who: 'ana' | 'ben', body: Json = {}) =>
      api<Json>('POST', `project/${p.id}/results/schema/${top}/response/${homes[who]}/`, { token: owner.access, body });
    let ana = await profile('ana', { schema: visits });
    for (let i = 0; i < 100 && ana.body.levels?.[0]?.total_filtered_responses !== 3; i++) {
      await new Promise((res) => setTimeout(res, 200));
      ana = await profile('ana', { schema: visits });
    }
    expect(ana.body.profile).toEqual({ schema_id: top, response_id: homes.ana, responses: 4 });
    expect(ana.body.items[0].stats).toMatchObject({ count: 3, sum: 65, min: 10, max: 35 });
    // Ben's visits were uploaded after Ana's: wait until ClickHouse has them too.
    let ben = await profile('ben');
    for (let i = 0; i < 100 && ben.body.levels?.[1]?.total_filtered_responses !== 2; i++) {
      await new Promise((res) => setTimeout(res, 200));
      ben = await profile('ben');
    }
    expect(ben.body.levels.map((l: Json) => l.total_filtered_responses)).toEqual([1, 2]);
    expect(ben.body.items.find((i: Json) => i.item_id === spent.id && i.schema_id === visits).stats.sum).toBe(15);
    expect(
      (
        await api('POST', `project/${p.id}/results/schema/${top}/response/${p.id}-${top}-1-d-99/`, {
          token: owner.access,
          body: {},
        })
      ).status,
    ).toBe(404);
    expect(
      (await api('POST', `project/${p.id}/results/schema/${top}/response/bad%20id/`, { token: owner.access, body: {} }))
        .status,
    ).toBe(404);
  }, 120_000);

  it("seeds the first start's demo data once: a form with every question type, sites, responses over a year", async () => {
    const addresses = {
      projects: `127.0.0.1:${t.ports.projects}`,
      forms: `127.0.0.1:${t.ports.forms}`,
      responses: `127.0.0.1:${t.ports.responses}`,
      secret: t.contextSecret,
    };
    const who = { userId: t.demo.userId, organizationId: t.demo.organizationId };
    expect(await seedDemoData(addresses, who, () => undefined, 300)).toBe(300);
    expect(await seedDemoData(addresses, who, () => undefined, 300)).toBe(0);
    const projects = await api<{ results: { id: number; name: string }[] }>(
      'GET',
      `organization/${owner.organization.id}/advanced_projects/`,
      { token: owner.access },
    );
    const household = projects.body.results?.find((x) => x.name === 'Household Survey');
    expect(household, JSON.stringify(projects.body).slice(0, 300)).toBeDefined();
    const p = (await api<Json>('GET', `project/${household!.id}/`, { token: owner.access })).body;
    expect(p.sites).toHaveLength(6);
    let r = await api<Json>('POST', `project/${p.id}/results/`, { token: owner.access, body: {} });
    for (let i = 0; i < 100 && r.body.levels?.[0]?.total_filtered_responses !== 300; i++) {
      await new Promise((res) => setTimeout(res, 200));
      r = await api<Json>('POST', `project/${p.id}/results/`, { token: owner.access, body: {} });
    }
    expect(r.body.levels[0].total_filtered_responses).toBe(300);
    const types = new Set(r.body.items.map((i: Json) => i.type));
    for (const type of [
      'number',
      'currency',
      'binary',
      'choice',
      'date',
      'geotag',
      'open',
      'barcode',
      'image',
      'signature',
      'calculated',
      'concatenation',
      'reference_project',
    ])
      expect(types).toContain(type);
    const first = Date.parse(r.body.levels[0].first_response);
    const last = Date.parse(r.body.levels[0].last_response);
    expect(last - first).toBeGreaterThan(300 * 86_400_000);
  }, 120_000);
});
