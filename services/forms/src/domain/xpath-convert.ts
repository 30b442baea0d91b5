// XLSForm expressions into sampler terms: `relevant` into block conditions (an OR of ANDs of tests on one answer),
// `calculation` into the formula language, `constraint` into answer rules (bounds, lengths, choice counts, pattern).
// Each answers the converted value or the reason it could not be converted.
import {
  patternProblem,
  type ConditionEntry,
  type ConditionTest,
  type ItemOptions,
  type ItemType,
  type Range,
} from '@fieldwork/sampler';
import { parseXPath, type Expr } from './xpath.js';

export type Outcome<T> = { ok: T } | { reason: string };

/** A question the expressions may refer to by name. */
export interface Target {
  id: number;
  type: ItemType;
  multi: boolean;
  /** Choice ids by code name (choice and binary questions). */
  choices?: Map<string, number>;
  /** The schema the question is in when it is not the condition's own (a parent level's form); 0 or absent: its own. */
  schemaId?: number;
}

/** A question by name; or why the name cannot be used here (a string). */
export type Lookup = (name: string) => Target | string | undefined;

const MAX_CONDITION_TESTS = 50;
const NUMERIC: ItemType[] = ['number', 'currency', 'calculated'];
const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '!=': '!=' };
const RANGE: Record<string, keyof Range> = { '>': '$gt', '>=': '$gte', '<': '$lt', '<=': '$lte' };

const literal = (e: Expr): string | number | undefined =>
  e.k === 'str' ? e.v : e.k === 'num' ? e.v : e.k === 'neg' && e.e.k === 'num' ? -e.e.v : undefined;

/** `relevant` → condition entries. */
export function toConditions(src: string, lookup: Lookup): Outcome<ConditionEntry[]> {
  const tree = parseXPath(src);
  if ('unsupported' in tree) return { reason: `it cannot be read (${tree.unsupported})` };
  const out: ConditionEntry[] = [];
  const ors: Expr[] = [];
  const flatten = (e: Expr, op: string, into: Expr[]) => {
    if (e.k === 'bin' && e.op === op) {
      flatten(e.l, op, into);
      flatten(e.r, op, into);
    } else into.push(e);
  };
  flatten(tree, 'or', ors);
  let tests = 0;
  for (const [i, disjunct] of ors.entries()) {
    const ands: Expr[] = [];
    flatten(disjunct, 'and', ands);
    for (const [j, part] of ands.entries()) {
      let negated = false;
      let e = part;
      while (e.k === 'call' && e.fn === 'not' && e.args.length === 1) {
        negated = !negated;
        e = e.args[0]!;
      }
      const t = test(e, lookup);
      if ('reason' in t) return t;
      if (++tests > MAX_CONDITION_TESTS) return { reason: `it has more than ${MAX_CONDITION_TESTS} tests` };
      negated = negated !== t.ok.negated;
      const joint = j > 0 ? 'AND' : i > 0 ? 'OR' : undefined;
      if (joint) out.push({ operator: negated ? (`${joint} NOT` as const) : joint });
      else if (negated) out.push({ operator: 'NOT' });
      out.push(t.ok.test);
    }
  }
  return { ok: out };
}

function test(e: Expr, lookup: Lookup): Outcome<{ test: ConditionTest; negated: boolean }> {
  const make = (target: Target, condition: ConditionTest['condition'], negated = false) => ({
    ok: { test: { itemId: target.id, schemaId: target.schemaId ?? 0, condition, finalized: true }, negated },
  });
  const choice = (target: Target, code: string | number) => {
    const id = target.choices?.get(String(code));
    return id === undefined ? undefined : [id];
  };
  if (e.k === 'call' && e.fn === 'selected' && e.args.length === 2 && e.args[0]!.k === 'ref') {
    const target = lookup(e.args[0]!.name);
    const value = literal(e.args[1]!);
    if (typeof target === 'string') return { reason: target };
    if (!target) return { reason: `\${${e.args[0]!.name}} is not a question of the form` };
    const ids = value === undefined ? undefined : choice(target, value);
    if (!ids) return { reason: `${String(value ?? 'its value')} is not a choice of \${${e.args[0]!.name}}` };
    return make(target, ids);
  }
  if (e.k === 'bin' && FLIP[e.op] !== undefined) {
    let ref = e.l;
    let value = e.r;
    let op = e.op;
    if (ref.k !== 'ref') {
      [ref, value] = [e.r, e.l];
      op = FLIP[op]!;
    }
    const v = literal(value);
    if (ref.k !== 'ref' || v === undefined)
      return {
        reason:
          "only tests of one answer against a value (${q} = 'x', ${q} > 3, selected(${q}, 'x')) become conditions",
      };
    const target = lookup(ref.name);
    if (typeof target === 'string') return { reason: target };
    if (!target) return { reason: `\${${ref.name}} is not a question of the form` };
    if (target.choices && (op === '=' || op === '!=')) {
      if (target.multi) return { reason: `\${${ref.name}} allows several choices: compare with selected()` };
      const ids = choice(target, v);
      if (!ids) return { reason: `${String(v)} is not a choice of \${${ref.name}}` };
      return make(target, ids, op === '!=');
    }
    const n = typeof v === 'number' ? v : v.trim() === '' ? Number.NaN : Number(v);
    if (NUMERIC.includes(target.type) && Number.isFinite(n)) {
      if (op === '=' || op === '!=') return make(target, { $gte: n, $lte: n }, op === '!=');
      return make(target, { [RANGE[op]!]: n });
    }
    return { reason: `the test on \${${ref.name}} (a ${target.type} question) has no condition equivalent` };
  }
  return {
    reason: "only tests of one answer against a value (${q} = 'x', ${q} > 3, selected(${q}, 'x')) become conditions",
  };
}

const FUNCTIONS: Record<string, { to: string; min: number; max: number }> = {
  if: { to: 'IF', min: 3, max: 3 },
  concat: { to: 'CONCATENATE', min: 1, max: 255 },
  int: { to: 'INT', min: 1, max: 1 },
  abs: { to: 'ABS', min: 1, max: 1 },
  sqrt: { to: 'SQRT', min: 1, max: 1 },
  pow: { to: 'POWER', min: 2, max: 2 },
  exp: { to: 'EXP', min: 1, max: 1 },
  log: { to: 'LN', min: 1, max: 1 },
  log10: { to: 'LOG10', min: 1, max: 1 },
  'string-length': { to: 'LEN', min: 1, max: 1 },
  today: { to: 'TODAY', min: 0, max: 0 },
  now: { to: 'NOW', min: 0, max: 0 },
  not: { to: 'NOT', min: 1, max: 1 },
  min: { to: 'MIN', min: 1, max: 255 },
  max: { to: 'MAX', min: 1, max: 255 },
};

/** `calculation` → a formula of the sampler's language; `refOf` names a question's reference (or says why it cannot). */
export function toFormula(src: string, refOf: (name: string) => Outcome<string>): Outcome<string> {
  const tree = parseXPath(src);
  if ('unsupported' in tree) return { reason: `it cannot be read (${tree.unsupported})` };
  let reason: string | undefined;
  const fail = (r: string) => {
    reason ??= r;
    return '0';
  };
  const print = (e: Expr, top: boolean): string => {
    switch (e.k) {
      case 'ref': {
        const ref = refOf(e.name);
        return 'ok' in ref ? ref.ok : fail(ref.reason);
      }
      case 'self':
        return fail('"." has no formula equivalent');
      case 'num':
        return Number.isFinite(e.v) && !/e/i.test(String(e.v))
          ? String(e.v)
          : fail(`the number ${e.v} is out of the formula language's range`);
      case 'str':
        return !e.v.includes('"')
          ? `"${e.v}"`
          : !e.v.includes("'")
            ? `'${e.v}'`
            : fail('a text holds both kinds of quotes');
      case 'neg':
        return `-${print(e.e, false)}`;
      case 'bin': {
        const l = print(e.l, false);
        const r = print(e.r, false);
        const s =
          e.op === 'and'
            ? `AND(${l}, ${r})`
            : e.op === 'or'
              ? `OR(${l}, ${r})`
              : e.op === 'mod'
                ? `MOD(${l}, ${r})`
                : `${l} ${e.op === 'div' ? '/' : e.op === '!=' ? '<>' : e.op} ${r}`;
        return top || /^(AND|OR|MOD)\(/.test(s) ? s : `(${s})`;
      }
      case 'call': {
        if (e.fn === 'true' || e.fn === 'false')
          return e.args.length === 0 ? e.fn.toUpperCase() : fail(`${e.fn}() takes no arguments`);
        if (e.fn === 'number' && e.args.length === 1) return print(e.args[0]!, top);
        if (e.fn === 'round' && (e.args.length === 1 || e.args.length === 2))
          return `ROUND(${print(e.args[0]!, true)}, ${e.args[1] ? print(e.args[1], true) : '0'})`;
        const f = FUNCTIONS[e.fn];
        if (!f) return fail(`${e.fn}() has no formula equivalent`);
        if (e.args.length < f.min || e.args.length > f.max)
          return fail(`${e.fn}() takes ${f.min === f.max ? f.min : `${f.min} to ${f.max}`} arguments`);
        return `${f.to}(${e.args.map((a) => print(a, true)).join(', ')})`;
      }
    }
  };
  const formula = print(tree, true);
  if (reason) return { reason };
  // The printer writes only the formula language's own syntax (checked function names and argument counts, quoted
  // texts, plain numbers), so the result is not parsed again here: parsing every formula with the language's full
  // parser cost more than the rest of a 20,000-row conversion. The corpus test compiles every converted formula.
  return { ok: formula };
}

export type RulePatch = Pick<
  ItemOptions,
  'minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minChoices' | 'maxChoices' | 'pattern'
>;

/** `constraint` → answer rules for a question of `type` (an AND of bounds on `.`, its length, its choice count, or regex). */
export function toRules(src: string, type: ItemType, opts: { decimal: boolean; multi: boolean }): Outcome<RulePatch> {
  const tree = parseXPath(src);
  if ('unsupported' in tree) return { reason: `it cannot be read (${tree.unsupported})` };
  const parts: Expr[] = [];
  const flatten = (e: Expr) => {
    if (e.k === 'bin' && e.op === 'and') {
      flatten(e.l);
      flatten(e.r);
    } else parts.push(e);
  };
  flatten(tree);
  const patch: RulePatch = {};
  const bound = (
    min: keyof RulePatch,
    max: keyof RulePatch,
    op: string,
    n: number,
    integral: boolean,
  ): string | undefined => {
    const given = n;
    if ((op === '>' || op === '<') && !integral)
      return `a strict bound (${op} ${n}) on a decimal answer has no equivalent`;
    if (integral && !Number.isInteger(n)) n = op === '>' || op === '>=' ? Math.ceil(n) : Math.floor(n);
    else if (op === '>') n += 1;
    else if (op === '<') n -= 1;
    if (op === '!=') return 'a "not equal" test has no equivalent';
    // A length or a choice count is never below 0: an upper bound below 0 can never hold (the builder refuses a
    // negative count), a lower bound below 0 always holds.
    const count = min !== 'minimum';
    if (count && n < 0 && (op === '<' || op === '<=' || op === '='))
      return `a length or a choice count is never below 0 (${op} ${given})`;
    const set = (k: keyof RulePatch) => ((patch as Record<string, unknown>)[k] = { active: true, value: n });
    if ((op === '>' || op === '>=' || op === '=') && !(count && n < 0)) set(min);
    if (op === '<' || op === '<=' || op === '=') set(max);
    return undefined;
  };
  for (const p of parts) {
    const [subjectArg, patternArg] = p.k === 'call' ? p.args : [];
    if (
      p.k === 'call' &&
      p.fn === 'regex' &&
      p.args.length === 2 &&
      subjectArg?.k === 'self' &&
      patternArg?.k === 'str'
    ) {
      if (type !== 'open' && type !== 'barcode')
        return { reason: `a pattern applies to text and barcode answers, not ${type}` };
      const problem = patternProblem(patternArg.v);
      if (problem) return { reason: problem };
      patch.pattern = { active: true, value: patternArg.v };
      continue;
    }
    if (p.k !== 'bin' || FLIP[p.op] === undefined)
      return {
        reason: 'only bounds (. >= 1), lengths (string-length(.) <= 10), choice counts and regex() become rules',
      };
    let subject = p.l;
    let value = p.r;
    let op = p.op;
    if (literal(subject) !== undefined) {
      [subject, value] = [p.r, p.l];
      op = FLIP[op]!;
    }
    const n = literal(value);
    if (typeof n !== 'number') return { reason: 'only comparisons with a number become rules' };
    let problem: string | undefined;
    if (subject.k === 'self' && (type === 'number' || type === 'currency'))
      problem = bound('minimum', 'maximum', op, n, !opts.decimal);
    else if (
      subject.k === 'call' &&
      subject.fn === 'string-length' &&
      subject.args[0]?.k === 'self' &&
      (type === 'open' || type === 'barcode')
    )
      problem = bound('minLength', 'maxLength', op, n, true);
    else if (
      subject.k === 'call' &&
      subject.fn === 'count-selected' &&
      subject.args[0]?.k === 'self' &&
      type === 'choice' &&
      opts.multi
    )
      problem = bound('minChoices', 'maxChoices', op, n, true);
    else problem = `this test on a ${type} answer has no rule equivalent`;
    if (problem) return { reason: problem };
  }
  return { ok: patch };
}
