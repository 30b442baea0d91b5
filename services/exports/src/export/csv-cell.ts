// The one guard against CSV injection (formula injection, OWASP): every CSV the exports service writes (named, coded
// and dictionary exports, import error reports) goes through `csvStringifier`, whose cast puts a ' in front of every
// text cell (headers included) that a spreadsheet would run as a formula: one starting with = + - @ tab or CR.
//   - Numbers we write as numbers (answers of number questions, coordinates, ids, the completed flag) are written as
//     they are, so -3.5 stays a number in a spreadsheet: a number cannot be a formula. The same text in a text answer
//     ("-3.5" typed in an open question) is text and gets its '.
//   - The guard is reversible: a text cell made of any number of ' followed by a trigger character gets one more
//     ' (so an answer that itself starts with '= comes back as it was), and `unguard` takes exactly one off. The
//     import reads our CSV exports back through `unguard` (read-rows.ts), so an export imports back losslessly.
//   - XLSX exports need no guard: their cells are typed inline strings, never formulas.
// `csvRecord` writes one record the way `csvStringifier` does (same guard, same quoting), as plain string work: the
// export writer's hot path (csv-stringify's per-field machinery cost half of an export's time).
import { stringify, type Options, type Stringifier } from 'csv-stringify';

const NEEDS_GUARD = /^'*[=+\-@\t\r]/;
const GUARDED = /^'+[=+\-@\t\r]/;

/** A text cell made safe for spreadsheets: a leading = + - @ tab or CR (after any ') gets a ' in front. */
export function guardCell(cell: string): string {
  return NEEDS_GUARD.test(cell) ? `'${cell}` : cell;
}

/** The text a guarded cell held: the ' that `guardCell` added taken off; any other cell as it is. */
export function unguardCell(cell: string): string {
  return GUARDED.test(cell) ? cell.slice(1) : cell;
}

/** A CSV stringifier whose every text cell is guarded; numbers are written as numbers (finite ones unguarded). */
export function csvStringifier(options: Omit<Options, 'cast'> = {}): Stringifier {
  return stringify({
    ...options,
    cast: {
      string: (s) => guardCell(s),
      number: (n) => (Number.isFinite(n) ? String(n) : guardCell(String(n))),
      date: (d) => guardCell(d.toISOString()),
      object: (o) => guardCell(JSON.stringify(o)),
    },
  });
}

const NEEDS_QUOTES = /[",\n\r]/;

/** One cell as csvStringifier writes it: guarded, quoted when it holds a comma, quote or line break. */
export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : guardCell(String(v))) : guardCell(v);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record and its line break, exactly as csvStringifier writes it. */
export function csvRecord(cells: readonly (string | number | null | undefined)[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += i === 0 ? csvField(cells[i]) : `,${csvField(cells[i])}`;
  return `${line}\n`;
}
