// A manager compares a project's results by site, group, team, collector, a choice question and month: two collectors
// at two sites and one respondent of an anonymous link filed the responses, and every chart and table names each
// group from its own kind (a site by its name, a choice by its name, the link's respondent "Anonymous") and draws
// every group with its value, at phone and desktop widths. The expected names and values are worked out here from
// the answers the journey uploads.
import type { Locator, Page } from '@playwright/test';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { Api, type Account } from './support/api.js';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';

type Who = 'alice' | 'bob' | 'anonymous';
type Water = 'piped' | 'well' | 'river';
interface Row {
  who: Who;
  members: number;
  water: Water;
  visit: string;
  remark?: string;
  /** time_created (UTC); the anonymous link's response is filed now (a link's responses cannot predate it). */
  created: string;
}

const ROWS: Row[] = [
  {
    who: 'alice',
    members: 4,
    water: 'piped',
    visit: '2026-01-05',
    remark: 'clean water',
    created: '2026-01-05T09:00:00Z',
  },
  {
    who: 'alice',
    members: 6,
    water: 'well',
    visit: '2026-01-20',
    remark: 'long walk',
    created: '2026-01-20T10:00:00Z',
  },
  { who: 'alice', members: 5, water: 'piped', visit: '2026-02-03', created: '2026-02-03T11:00:00Z' },
  {
    who: 'bob',
    members: 2,
    water: 'river',
    visit: '2026-01-12',
    remark: 'river is dirty',
    created: '2026-01-12T08:00:00Z',
  },
  { who: 'bob', members: 3, water: 'piped', visit: '2026-02-14', created: '2026-02-14T08:30:00Z' },
  {
    who: 'anonymous',
    members: 9,
    water: 'well',
    visit: '2026-02-25',
    remark: 'no tap',
    created: new Date().toISOString(),
  },
];

/** Where each filed: Alice in North (Ward A, Team Blue), Bob in South (Ward B, no team), the link nowhere. */
const PLACES = {
  site: { alice: 'North', bob: 'South', anonymous: 'No site' },
  group: { alice: 'Ward A', bob: 'Ward B', anonymous: 'No group' },
  team: { alice: 'Team Blue', bob: 'No team', anonymous: 'No team' },
  collector: { alice: 'Alice Moraes', bob: 'Bob Otieno', anonymous: 'Anonymous' },
} as const;
const WATER: Record<Water, string> = { piped: 'Piped water', well: 'Well', river: 'River' };
const CHOICES: Water[] = ['piped', 'well', 'river'];

/** A month as spec 001 writes chart months (MM-YYYY), in UTC, the results page's time zone. */
const month = (iso: string) => `${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

type Kind = 'site' | 'group' | 'team' | 'collector' | 'question' | 'month';
const KINDS: Kind[] = ['site', 'group', 'team', 'collector', 'question', 'month'];
const groupOf = (kind: Kind, r: Row) =>
  kind === 'question' ? WATER[r.water] : kind === 'month' ? month(r.created) : PLACES[kind][r.who];

/** The groups of a comparison in the order drawn: periods in time, the others by name (normalised below). */
function groups(kind: Kind, rows: Row[]): string[] {
  const keyed = [...new Set(rows.map((r) => groupOf(kind, r)))];
  return kind === 'month'
    ? keyed.sort((a, b) => a.slice(3).localeCompare(b.slice(3)) || a.localeCompare(b))
    : keyed.sort();
}

interface Trace {
  name: string;
  points: [string, number][];
}
const round = (n: number) => Math.round(n * 100) / 100;
const mean = (ns: number[]) => ns.reduce((a, b) => a + b, 0) / ns.length;

/** What each question's chart must draw, compared by `kind`. */
function expected(kind: Kind) {
  const of = (g: string) => ROWS.filter((r) => groupOf(kind, r) === g);
  const all = groups(kind, ROWS);
  return {
    // A number: its mean per group (the page's value).
    members: [{ name: 'Household members', points: all.map((g) => [g, round(mean(of(g).map((r) => r.members)))]) }],
    // A choice: one series per group, its answers per choice.
    water: all.map((g) => ({
      name: g,
      points: CHOICES.map((c) => [WATER[c], of(g).filter((r) => r.water === c).length]),
    })),
    // A date and an open question: answers per group (groups without an answer are not drawn).
    visit: [{ name: 'Date of the visit', points: all.map((g) => [g, of(g).length]) }],
    remark: [
      {
        name: 'Remarks',
        points: groups(
          kind,
          ROWS.filter((r) => r.remark),
        ).map((g) => [g, of(g).filter((r) => r.remark).length]),
      },
    ],
  } as Record<string, Trace[]>;
}

/**
 * What plotly drew in a chart: per trace its name and the points it placed, read from its calculated data (a point
 * plotly could not place, such as a name on a number axis, is left out) with the category names of the axis.
 */
function drawn(chart: Locator): Promise<Trace[] | null> {
  return chart.evaluate((el) => {
    type Axis = { type: string; _categories: string[] };
    type Point = { p?: number; s?: number; x?: number; y?: number };
    const gd = el as unknown as {
      calcdata?: Point[][];
      _fullData?: { type: string; name: string; xaxis: string; showlegend?: boolean }[];
      _fullLayout?: Record<string, Axis>;
    };
    if (!gd.calcdata || !gd._fullData || !gd._fullLayout) return null;
    return gd.calcdata.map((cd, i) => {
      const t = gd._fullData![i]!;
      const axis = gd._fullLayout![`xaxis${t.xaxis.slice(1)}`]!;
      const points = cd.flatMap((pt): [string, number][] => {
        const [at, value] = t.type === 'bar' ? [pt.p, pt.s] : [pt.x, pt.y];
        if (typeof at !== 'number' || !Number.isFinite(at) || typeof value !== 'number' || !Number.isFinite(value))
          return [];
        return [[axis.type === 'category' ? axis._categories[at]! : String(at), Math.round(value * 100) / 100]];
      });
      return { name: t.name, points };
    });
  });
}

/**
 * A chart of dates per group (a date axis across, the groups down): per series in the legend, its [group, date]
 * points as plotly placed them, by group.
 */
function firstAndLast(chart: Locator): Promise<{ name: string; points: [string, string][] }[]> {
  return chart.evaluate((el) => {
    const gd = el as unknown as {
      calcdata: { x?: number; y?: number }[][];
      _fullData: { name: string; showlegend?: boolean }[];
      _fullLayout: { xaxis: { type: string }; yaxis: { _categories: string[] } };
    };
    if (gd._fullLayout.xaxis.type !== 'date') return [];
    return gd.calcdata.flatMap((cd, i) =>
      gd._fullData[i]!.showlegend === false
        ? []
        : [
            {
              name: gd._fullData[i]!.name,
              points: cd
                .flatMap((pt): [string, string][] =>
                  typeof pt.x === 'number' && Number.isFinite(pt.x) && typeof pt.y === 'number'
                    ? [[gd._fullLayout.yaxis._categories[pt.y]!, new Date(pt.x).toISOString().slice(0, 10)]]
                    : [],
                )
                .sort(),
            },
          ],
    );
  });
}

/**
 * Traces and points in a stable order, except periods (drawn in time order, compared as they are). `series`: the
 * traces are the groups (a choice question's grouped bars), named in the legend; else the one trace's points are.
 */
const normal = (traces: Trace[] | null, kind: Kind, series: boolean) =>
  (traces ?? [])
    .map((t) => ({
      name: series ? t.name : '',
      points: kind === 'month' || series ? t.points : [...t.points].sort(),
    }))
    .sort((a, b) => (kind === 'month' ? 0 : a.name.localeCompare(b.name)));

/** The texts of a table's cells, row by row (header row first). */
const cells = (table: Locator) =>
  table.evaluate((t) =>
    [...(t as HTMLTableElement).rows].map((r) => [...r.cells].map((c) => c.getAttribute('title') ?? c.textContent)),
  );

async function chooseComparison(page: Page, kind: Kind, waterId: number) {
  const value = kind === 'question' ? `question:${waterId}` : kind === 'month' ? 'period:month' : kind;
  await page.getByTestId('compare').selectOption(value);
}

forEachViewport(['phone', 'desktop'], (size) => {
  test(`a manager compares results by site, group, team, collector, choice and month, each group named and drawn (${size})`, async ({
    page,
    api,
    owner,
    stack,
    shot,
  }) => {
    test.setTimeout(240_000);
    const project = await api.createProject(`Labels ${size}`);
    const schemaId = project.sampler_schemas[0]!.id;
    const site = (name: string, lng: number) =>
      api.must<{ id: number }>('POST', `project/${project.id}/sites/`, {
        name,
        geotag: { type: 'Point', coordinates: [lng, 1] },
      });
    const north = await site('North', 1);
    const south = await site('South', 2);
    const wardA = await api.must<{ id: number }>('POST', `project/${project.id}/groups/`, {
      name: 'Ward A',
      site: north.id,
    });
    const wardB = await api.must<{ id: number }>('POST', `project/${project.id}/groups/`, {
      name: 'Ward B',
      site: south.id,
    });
    const blue = await api.must<{ id: number }>('POST', `project/${project.id}/teams/`, {
      name: 'Team Blue',
      group: wardA.id,
    });
    const people: Record<Exclude<Who, 'anonymous'>, Account> = {
      alice: await api.addProjectUser(project.id, 'collector', 'alice', {
        firstName: 'Alice',
        lastName: 'Moraes',
        site: north.id,
        group: wardA.id,
        team: blue.id,
      }),
      bob: await api.addProjectUser(project.id, 'collector', 'bob', {
        firstName: 'Bob',
        lastName: 'Otieno',
        site: south.id,
        group: wardB.id,
      }),
    };

    // The form. Its first water choice takes Alice's user id as its id: a choice must be named as a choice, whatever
    // user, site, group or team shares its id.
    const block = addBlock(newSchemaBody('S'), { en: 'Household' });
    const members = addItem(block.body, block.id, 'number', 'en', 'Household members');
    const water = addItem(members.body, block.id, 'choice', 'en', 'Water source');
    water.body.counters.choices = people.alice.userId - 1;
    const choiceIds = {} as Record<Water, number>;
    let body = water.body;
    for (const c of CHOICES) {
      const made = addChoice(body, water.id, 'en', WATER[c]);
      choiceIds[c] = made.id;
      body = made.body;
    }
    expect(choiceIds.piped).toBe(people.alice.userId);
    const visit = addItem(body, block.id, 'date', 'en', 'Date of the visit');
    const remark = addItem(visit.body, block.id, 'open', 'en', 'Remarks');
    await api.saveSchema(schemaId, remark.body);
    const ids = { members: members.id, water: water.id, visit: visit.id, remark: remark.id };

    const payload = (r: Row, i: number) => ({
      sampler_schema: schemaId,
      response_id: `${project.id}-${schemaId}-e2e-labels-${i}`,
      time_created: r.created,
      time_completed: r.created,
      data: {
        '0': {
          [ids.members]: r.members,
          [ids.water]: [choiceIds[r.water]],
          [ids.visit]: r.visit,
          ...(r.remark ? { [ids.remark]: r.remark } : {}),
        },
      },
    });
    // Each collector uploads their own responses, logged in as themselves; the link's respondent has no account.
    const as = {
      alice: await Api.login(stack.baseUrl, people.alice, stack),
      bob: await Api.login(stack.baseUrl, people.bob, stack),
    };
    const link = await api.createSurvey(project.id);
    const opened = await fetch(`${stack.baseUrl}/api/collect/${link.token}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: link.token, fingerprint: `e2e-labels-${size}`, email: '' }),
    });
    expect(opened.status).toBe(200);
    const respondent = ((await opened.json()) as { token: string }).token;
    for (const [i, r] of ROWS.entries()) {
      if (r.who !== 'anonymous') {
        await as[r.who].must('POST', `project/${project.id}/response/complete/`, payload(r, i));
        continue;
      }
      const up = await fetch(`${stack.baseUrl}/api/project/${project.id}/response/complete/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `JWT ${respondent}` },
        body: JSON.stringify(payload(r, i)),
      });
      expect(up.status, await up.text()).toBe(201);
    }
    // Ingestion into ClickHouse is asynchronous: wait until every response is counted.
    await expect
      .poll(
        async () =>
          (
            await api.must<{ levels: { total_filtered_responses: number }[] }>(
              'POST',
              `project/${project.id}/results/schema/${schemaId}/item/`,
              { item_ids: [ids.members] },
            )
          ).levels[0]?.total_filtered_responses,
        { timeout: 30_000 },
      )
      .toBe(ROWS.length);

    await page.goto(`/project/${project.id}/results`);
    await logIn(page, owner, page.getByTestId('results-page'));
    await expect(page.getByTestId('level-summary')).toHaveText(new RegExp(`^${ROWS.length} responses`));

    for (const kind of KINDS) {
      await chooseComparison(page, kind, ids.water);
      const want = expected(kind);
      for (const [key, id] of Object.entries(ids)) {
        const chart = page.getByTestId(`chart-${id}`);
        await expect
          .poll(async () => normal(await drawn(chart).catch(() => null), kind, key === 'water'), {
            message: `${key} compared by ${kind}`,
            timeout: 20_000,
          })
          .toEqual(normal(want[key]!, kind, key === 'water'));
      }
      // Lines only join periods: a date compared by anything else is bars.
      const dateTraces = await page
        .getByTestId(`chart-${ids.visit}`)
        .evaluate((el) => (el as unknown as { _fullData: { type: string }[] })._fullData.map((t) => t.type));
      expect(dateTraces).toEqual([kind === 'month' ? 'scatter' : 'bar']);
      await shot(`compared-by-${kind}`);
    }

    // The first date asked for: per site, a segment from its first to its last visit (a date per group, not a line).
    await page.getByTestId('aggregator').selectOption('min');
    await chooseComparison(page, 'site', ids.water);
    const sites = groups('site', ROWS);
    const visits = (site: string) => ROWS.filter((r) => PLACES.site[r.who] === site).map((r) => r.visit);
    await expect
      .poll(() => firstAndLast(page.getByTestId(`chart-${ids.visit}`)).catch(() => null), { timeout: 20_000 })
      .toEqual([
        { name: 'First', points: sites.map((g) => [g, visits(g).sort()[0]]) },
        { name: 'Last', points: sites.map((g) => [g, visits(g).sort().at(-1)]) },
      ]);
    await shot('first-visit-by-site');
    await page.getByTestId('aggregator').selectOption('avg');

    // The tables say the same: the groups' names as column or row headers, and their figures.
    await page.getByTestId('mode-table').click();
    for (const kind of KINDS) {
      await chooseComparison(page, kind, ids.water);
      const want = expected(kind);
      const table = (id: number) => page.getByTestId(`result-${id}`).locator('.result-table').last();
      const names = groups(kind, ROWS);
      const order = (labels: string[]) => (kind === 'month' ? labels : [...labels].sort());
      // A number: one column per group, the mean in the Average row.
      await expect
        .poll(async () => {
          const rows = await cells(table(ids.members));
          const head = rows[0]!.slice(1) as string[];
          const avg = rows.find((r) => r[0] === 'Average')!.slice(1) as string[];
          return order(head.map((h, i) => `${h}=${avg[i]}`));
        })
        .toEqual(order(want.members![0]!.points.map(([g, v]) => `${g}=${v.toFixed(2)}`)));
      // A choice: one column per group, a row per choice.
      const choiceRows = await cells(table(ids.water));
      expect(order(choiceRows[0]!.slice(1) as string[])).toEqual(order(names));
      for (const t of want.water!)
        for (const [choice, n] of t.points) {
          const row = choiceRows.find((r) => r[0] === choice)!;
          expect(row[choiceRows[0]!.indexOf(t.name)], `${choice} in ${t.name}`).toBe(String(n));
        }
      // A date and an open question: a row per group with its answers.
      for (const key of ['visit', 'remark'] as const) {
        const rows = (await cells(table(ids[key]))).slice(1);
        expect(order(rows.map((r) => `${r[0]}=${r[1]}`))).toEqual(
          order(want[key]![0]!.points.map(([g, n]) => `${g}=${n}`)),
        );
      }
    }
    await shot('compared-by-month-table');

    // The performance view names the link's respondent too.
    await page.getByTestId('nav-performance').click();
    const collectors = page.getByTestId('performance-by-collector');
    await expect(collectors.locator('tbody tr')).toHaveCount(3);
    for (const who of ['alice', 'bob', 'anonymous'] as const)
      await expect(collectors.locator('tbody tr').filter({ hasText: PLACES.collector[who] })).toContainText(
        String(ROWS.filter((r) => r.who === who).length),
      );
    await expect(collectors).not.toContainText('#0');
    await shot('performance');
  });
});
