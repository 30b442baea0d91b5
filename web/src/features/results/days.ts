// Whole days of a time zone as instants: the bounds a date filter sends, so that "1 to 31 March" means those days on
// the clock of the results' time zone (and the results service can answer them from its aggregates when that is the
// project's time zone). Pure.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayOf(ms: number, tz: string): string {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(tz, f);
  }
  return f.format(ms);
}

const QUARTER = 900_000;

/**
 * The first millisecond of `day` (YYYY-MM-DD) in `tz`: found from UTC midnight by quarter hours (every zone's offsets
 * and changes fall on quarter hours), so a day that starts at 01:00 (a daylight-saving change at midnight) starts
 * there.
 */
export function dayStartMs(day: string, tz: string): number {
  let t = Date.parse(`${day}T00:00:00Z`);
  // Offsets are within ±14 h: walk back to before the day, then forward to its first quarter hour.
  for (let i = 0; i < 200 && dayOf(t - 1, tz) >= day; i++) t -= QUARTER * 4;
  for (let i = 0; i < 400 && dayOf(t, tz) < day; i++) t += QUARTER;
  return t;
}

/** A date filter's bounds in seconds: from the first millisecond of `from` to the last millisecond of `to`. */
export function dayRange(from: string, to: string, tz: string): { start: number | null; end: number | null } {
  const next = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    start: from ? dayStartMs(from, tz) / 1000 : null,
    end: to ? (dayStartMs(next(to), tz) - 1) / 1000 : null,
  };
}
