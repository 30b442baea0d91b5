// Answer patterns (regular expressions a form designer sets on text questions, as XLSForm's regex() constraint):
// which patterns a form may hold, and the match itself. The same code decides in the browser and in the services.
import safeRegex from 'safe-regex2';

/** The longest pattern a form may hold. */
export const PATTERN_MAX_LENGTH = 500;

export const PATTERN_PROBLEMS = {
  empty: 'Enter a pattern.',
  long: `A pattern has at most ${PATTERN_MAX_LENGTH} characters.`,
  invalid: 'This pattern is not a valid regular expression.',
  unsupported: 'Back-references and look-arounds cannot be checked safely: write the pattern without them.',
  slow: 'This pattern could take too long to check: avoid a repeated group that itself repeats, such as (a+)+.',
} as const;

// A back-reference (\1, \k<name>) or a look-around ((?=, (?!, (?<=, (?<!) outside a character class: the services'
// linear-time regular expression engine (see service-kit) cannot run them, so they could backtrack without bound.
const BACKTRACKING_ONLY = /\\[1-9]|\\k<|\(\?<?[=!]/;

/** Why a form may not hold `pattern`, or undefined when it may. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.trim() === '') return PATTERN_PROBLEMS.empty;
  if (pattern.length > PATTERN_MAX_LENGTH) return PATTERN_PROBLEMS.long;
  try {
    new RegExp(pattern);
  } catch {
    return PATTERN_PROBLEMS.invalid;
  }
  if (BACKTRACKING_ONLY.test(pattern.replace(/\\\\/g, '').replace(/\[(?:\\.|[^\]\\])*\]/g, '')))
    return PATTERN_PROBLEMS.unsupported;
  if (!safeRegex(pattern)) return PATTERN_PROBLEMS.slow;
  return undefined;
}

const compiled = new Map<string, RegExp | null>();

/**
 * Does `value` match `pattern`? Like XLSForm's regex(): a search, so anchor with ^ and $ to match the whole answer.
 * A pattern a form may not hold matches nothing (the answer is refused rather than checked unsafely).
 */
export function matchesPattern(pattern: string, value: string): boolean {
  let re = compiled.get(pattern);
  if (re === undefined) {
    // No flags: the "u" flag keeps V8 from falling back to its linear engine on excessive backtracking.
    re = patternProblem(pattern) === undefined ? new RegExp(pattern) : null;
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, re);
  }
  return re !== null && re.test(value);
}
