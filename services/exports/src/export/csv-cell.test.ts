import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { readRows } from '../import/read-rows.js';
import { csvRecord, csvStringifier, guardCell, unguardCell } from './csv-cell.js';

const TRIGGERS = ['=HYPERLINK("http://x","y")', '+1', '-cmd', '@SUM(A1)', '\tx', '\rx', '=', '-', '-3.5'];
const SAFE = ['plain', '', ' =x', 'a=b', '1-2', 'x@y', "'plain", "it's"];

/** The text a stringifier writes for these rows. */
async function csvOf(rows: unknown[][]): Promise<string> {
  const csv = csvStringifier();
  const chunks: Buffer[] = [];
  csv.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => csv.on('end', r));
  for (const r of rows) csv.write(r);
  csv.end();
  await done;
  return Buffer.concat(chunks).toString('utf8');
}

describe('CSV injection guard', () => {
  it("puts a ' in front of text starting with = + - @ tab or CR, and nothing else", () => {
    for (const s of TRIGGERS) expect(guardCell(s), JSON.stringify(s)).toBe(`'${s}`);
    for (const s of SAFE) expect(guardCell(s), JSON.stringify(s)).toBe(s);
    // Text already starting with ' before a trigger gets one more, so that it reads back as it was.
    expect(guardCell("'=1")).toBe("''=1");
    expect(guardCell("''-x")).toBe("'''-x");
  });

  it('is undone exactly by unguardCell, whatever the text', () => {
    const texts = [...TRIGGERS, ...SAFE, "'=1", "''=1", "'", "''", "'\t", "'x=", '==', "'+'+"];
    for (const s of texts) expect(unguardCell(guardCell(s)), JSON.stringify(s)).toBe(s);
    // A cell nobody guarded reads as it is.
    for (const s of SAFE) expect(unguardCell(s)).toBe(s);
  });

  it('guards every text cell the stringifier writes, headers too, and writes numbers as numbers', async () => {
    const text = await csvOf([
      ['=Label', '@code', 'Area'],
      ['-cmd', -3.5, '-3.5'],
      ['\tTab', 0, '+1'],
      ['\rCR', -1e21, Number.NEGATIVE_INFINITY],
    ]);
    expect(parse(text)).toEqual([
      ["'=Label", "'@code", 'Area'],
      ["'-cmd", '-3.5', "'-3.5"],
      ["'\tTab", '0', "'+1"],
      ["'\rCR", '-1e+21', "'-Infinity"],
    ]);
  });

  it('reads a guarded CSV back as it was written (the import side)', async () => {
    const rows = [[...TRIGGERS], [...SAFE], ["'=1", "''@x", 'é, "quoted"\nline']];
    const source = readRows(Readable.from([Buffer.from(await csvOf(rows))]), 'export.csv');
    const back: unknown[][] = [];
    for await (const r of source.rows) back.push(r);
    expect(back).toEqual(rows.map((r) => r.map(String)).filter((r) => r.some((c) => c !== '')));
  });
});

describe('csvRecord', () => {
  it('writes every record exactly as the guarded stringifier does', async () => {
    const cells = [
      ...TRIGGERS,
      ...SAFE,
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\rhere',
      'ünïcödé',
      -3.5,
      0,
      42,
      NaN,
      Infinity,
      null,
    ];
    const rows = [cells, [...cells].reverse(), ['only'], [null, '', 7]];
    expect(rows.map((r) => csvRecord(r)).join('')).toBe(await csvOf(rows));
  });
  it('quotes a cell with a comma, a quote or a line break and doubles its quotes', () => {
    expect(csvRecord(['a,b', 'x"y', 'l\n', 'plain', -1, null])).toBe('"a,b","x""y","l\n",plain,-1,\n');
    expect(csvRecord(['=1+1', '-x'])).toBe("'=1+1,'-x\n");
  });
});
