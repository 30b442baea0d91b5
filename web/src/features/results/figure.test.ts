import { beforeAll, describe, expect, it } from 'vitest';
import { languageReady } from '../../i18n';
import { figureOf, type Figure } from './figure';
import { chartKind } from './format';
import { groupName, OTHER, type NameSources } from './labels';
import type { ComparedItem, ItemResult } from './resultsApi';

// What the screen knows: sites, the project's users and the compared question's choices, their ids overlapping.
const sources: NameSources = {
  sites: [
    { id: 3, name: 'North' },
    { id: 4, name: 'South' },
  ],
  users: [
    { user_id: 3, display_name: 'Demo User' },
    { user_id: 12, display_name: 'Alice Moraes' },
    { user_id: 13, display_name: 'Bob Otieno' },
  ],
  choice: (id) => ({ 3: 'Piped water', 4: 'Well' })[id],
};
const names = (by: ComparedItem['by'], key: string) => groupName(by, key, sources);

function item(type: string, comparison: ComparedItem | null, extra: Partial<ItemResult> = {}): ItemResult {
  return {
    schema_id: 1,
    item_id: 5,
    type,
    name: { en: 'Q' },
    code_name: 'q',
    stats: { count: 6 },
    comparison,
    ...extra,
  };
}

const draw = (i: ItemResult, projectType = 'S') => figureOf(i, chartKind(i, projectType), 'en', names, 'Q')!;
/** Per trace: its type, name and points as [x, y]. */
const traces = (f: Figure) =>
  f.data.map((d) => {
    const t = d as { type?: string; name?: string; x?: unknown[]; y?: unknown[]; mode?: string };
    return { type: t.type, mode: t.mode, name: t.name, points: (t.x ?? []).map((x, i) => [x, t.y?.[i]]) };
  });

describe('figures of compared items', () => {
  beforeAll(() => languageReady);
  it('draws a number compared by collector: every collector a bar on a category axis, the anonymous one named', () => {
    const f = draw(
      item(
        'number',
        {
          by: { by: 'collector' },
          groups: [
            { key: '0', stats: { count: 1, avg: 9 }, value: 9 },
            { key: '12', stats: { count: 2, avg: 4 }, value: 4 },
            { key: '13', stats: { count: 3, avg: 5.5 }, value: 5.5 },
          ],
        },
        { aggregator: 'avg' },
      ),
    );
    expect(traces(f)).toEqual([
      {
        type: 'bar',
        mode: undefined,
        name: 'Q',
        points: [
          ['Anonymous', 9],
          ['Alice Moraes', 4],
          ['Bob Otieno', 5.5],
        ],
      },
    ]);
    // Names that are mostly numbers would make plotly's guessed axis a number axis, dropping every other name.
    expect(f.layout.xaxis?.type).toBe('category');
  });

  it('draws a choice compared by a choice question: groups named by the choices, not by users or sites', () => {
    const f = draw(
      item(
        'choice',
        {
          by: { by: 'question', item_id: 9 },
          groups: [
            { key: '3', answers: [{ choice_id: 1, count: 2 }] },
            { key: '4', answers: [{ choice_id: 1, count: 1 }] },
          ],
        },
        { answers: [{ choice_id: 1, name: { en: 'Yes' }, count: 3 }] },
      ),
    );
    expect(traces(f).map((t) => [t.type, t.name, t.points])).toEqual([
      ['bar', 'Piped water', [['Yes', 2]]],
      ['bar', 'Well', [['Yes', 1]]],
    ]);
    expect(f.layout.xaxis?.type).toBe('category');
  });

  it('draws a date compared by site as bars of answers per site, not a line across sites', () => {
    const f = draw(
      item('date', {
        by: { by: 'site' },
        groups: [
          { key: '3', stats: { count: 4 } },
          { key: '4', stats: { count: 2 } },
          { key: '0', stats: { count: 1 } },
        ],
      }),
    );
    expect(traces(f)).toEqual([
      {
        type: 'bar',
        mode: undefined,
        name: 'Q',
        points: [
          ['North', 4],
          ['South', 2],
          ['No site', 1],
        ],
      },
    ]);
  });

  it('draws a date compared by site with the first or last date asked as each site from its first to its last date', () => {
    const f = draw(
      item(
        'date',
        {
          by: { by: 'site' },
          groups: [
            { key: '3', stats: { count: 4, min: '2026-01-02', max: '2026-02-03' }, value: '2026-01-02' },
            { key: '4', stats: { count: 2, min: '2026-01-10', max: '2026-01-10' }, value: '2026-01-10' },
          ],
        },
        { aggregator: 'min' },
      ),
    );
    const [, first, last] = traces(f);
    expect(first).toMatchObject({
      name: 'First',
      points: [
        ['2026-01-02', 'North'],
        ['2026-01-10', 'South'],
      ],
    });
    expect(last).toMatchObject({
      name: 'Last',
      points: [
        ['2026-02-03', 'North'],
        ['2026-01-10', 'South'],
      ],
    });
    expect(f.layout.xaxis?.type).toBe('date');
    expect(f.layout.yaxis?.type).toBe('category');
  });

  it('joins periods with a line: a date compared by month', () => {
    const f = draw(
      item('date', {
        by: { by: 'period', period: 'month' },
        groups: [
          { key: '2026-01-01', stats: { count: 4 } },
          { key: '2026-02-01', stats: { count: 2 } },
        ],
      }),
    );
    expect(traces(f)).toEqual([
      {
        type: 'scatter',
        mode: 'lines+markers',
        name: 'Q',
        points: [
          ['01-2026', 4],
          ['02-2026', 2],
        ],
      },
    ]);
  });

  it('draws a text question compared as its answers per collector, or through the months', () => {
    const f = draw(
      item('open', {
        by: { by: 'collector' },
        groups: [
          { key: '12', stats: { count: 2 } },
          { key: '0', stats: { count: 1 } },
        ],
      }),
    );
    expect(traces(f)[0]!.points).toEqual([
      ['Alice Moraes', 2],
      ['Anonymous', 1],
    ]);
    expect(figureOf(item('open', null), 'text', 'en', names, 'Q')).toBeNull();
    const byMonth = draw(
      item('open', {
        by: { by: 'period', period: 'month' },
        groups: [
          { key: '2026-01-01', stats: { count: 2 } },
          { key: '2026-03-01', stats: { count: 1 } },
        ],
      }),
    );
    expect(traces(byMonth)).toEqual([
      {
        type: 'scatter',
        mode: 'lines+markers',
        name: 'Q',
        points: [
          ['01-2026', 2],
          ['03-2026', 1],
        ],
      },
    ]);
  });

  it('draws trend-series choices as lines through periods and as grouped bars across sites', () => {
    const groups = [
      { key: '3', answers: [{ choice_id: 1, count: 2 }] },
      { key: '4', answers: [{ choice_id: 1, count: 5 }] },
    ];
    const answers = [{ choice_id: 1, name: { en: 'Yes' }, count: 7 }];
    const bySite = draw(item('binary', { by: { by: 'site' }, groups }, { answers }), 'T');
    expect(traces(bySite).map((t) => [t.type, t.name, t.points])).toEqual([
      ['bar', 'North', [['Yes', 2]]],
      ['bar', 'South', [['Yes', 5]]],
    ]);
    const byDay = draw(
      item(
        'binary',
        {
          by: { by: 'period', period: 'day' },
          groups: [
            { key: '2026-01-01', answers: [{ choice_id: 1, count: 2 }] },
            { key: '2026-01-02', answers: [{ choice_id: 1, count: 5 }] },
          ],
        },
        { answers },
      ),
      'T',
    );
    expect(traces(byDay)).toEqual([
      {
        type: 'scatter',
        mode: 'lines+markers',
        name: 'Yes',
        points: [
          ['01-01-2026', 2],
          ['01-02-2026', 5],
        ],
      },
    ]);
  });

  it('keeps groups of one name apart and names the capped rest Other', () => {
    const f = draw(
      item(
        'number',
        {
          by: { by: 'site' },
          groups: [
            { key: '3', stats: { count: 1, avg: 1 }, value: 1 },
            { key: '99', stats: { count: 1, avg: 2 }, value: 2 },
          ],
          capped: { limit: 2, groups: 3, other: { key: '', stats: { count: 1, avg: 3 }, value: 3 } },
        },
        { aggregator: 'avg' },
      ),
    );
    expect(traces(f)[0]!.points).toEqual([
      ['North', 1],
      ['Site #99', 2],
      ['Other', 3],
    ]);
    const twins = figureOf(
      item(
        'number',
        {
          by: { by: 'site' },
          groups: [
            { key: '3', stats: { count: 1, avg: 1 }, value: 1 },
            { key: '4', stats: { count: 1, avg: 2 }, value: 2 },
          ],
        },
        { aggregator: 'avg' },
      ),
      'histogram',
      'en',
      () => 'Same name',
      'Q',
    )!;
    expect(traces(twins)[0]!.points.map(([x]) => x)).toEqual(['Same name', 'Same name (2)']);
    expect(OTHER).not.toBe('');
  });
});
