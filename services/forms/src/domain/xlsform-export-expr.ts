// Sampler terms back into XLSForm expressions, the inverse of xpath-convert.ts: block conditions into `relevant`,
// formulas into `calculation`, answer rules into `constraint`. Each answers the expression, or why there is none; what
// the importer writes comes back as the same conditions, formula and rules when the expression is imported again.
import { parseFormula, type ConditionEntry, type ConditionTest, type Item, type Range } from '@fieldwork/sampler';
import type { Outcome } from './xpath-convert.js';

/** What an expression may say about a question: its XLSForm name, type and choice code names by id. */
export interface Named {
  name: string;
  item: Item;
  choices: Map<number, string>;
}

/** A text literal of XPath (which has no escapes): single quotes, else double, else none. */
export function quote(s: string): string | undefined {
  if (!s.includes("'")) return `'${s}'`;
  if (!s.includes('"')) return `"${s}"`;
  return undefined;
}

const number = (n: number) => (Number.isFinite(n) && !/e/i.test(String(n)) ? String(n) : undefined);

/** Block conditions → `relevant`: AND binds tighter than OR in both, NOT applies to the test after it. */
export function conditionsToXPath(
  entries: ConditionEntry[],
  lookup: (test: ConditionTest) => Outcome<Named>,
): Outcome<string> {
  let out = '';
  let pendingNot = false;
  for (const e of entries) {
    if ('operator' in e) {
      const [joint, not] = e.operator.split(' ') as [string, string | undefined];
      if (joint === 'NOT') pendingNot = true;
      else {
        out += joint === 'AND' ? ' and ' : ' or ';
        pendingNot = not === 'NOT';
      }
      continue;
    }
    if (!e.finalized) return { reason: 'it has an unfinished test' };
    const target = lookup(e);
    if ('reason' in target) return target;
    const t = testToXPath(e.condition, target.ok);
    if ('reason' in t) return t;
    out += pendingNot ? `not(${t.ok})` : t.ok;
    pendingNot = false;
  }
  return out === '' ? { reason: 'it is empty' } : { ok: out };
}

function testToXPath(condition: number[] | Range, target: Named): Outcome<string> {
  const ref = `\${${target.name}}`;
  if (Array.isArray(condition)) {
    const parts: string[] = [];
    for (const id of condition) {
      const code = target.choices.get(id);
      if (code === undefined) return { reason: `a choice it tests is not a choice of ${target.name}` };
      const q = quote(code);
      if (q === undefined) return { reason: `the choice code ${code} holds both kinds of quotes` };
      parts.push(target.item.options.multiselect ? `selected(${ref}, ${q})` : `${ref} = ${q}`);
    }
    if (parts.length === 0) return { reason: `it tests no choice of ${target.name}` };
    return { ok: parts.length === 1 ? parts[0]! : `(${parts.join(' or ')})` };
  }
  const bounds: string[] = [];
  const { $gt, $gte, $lt, $lte } = condition;
  if ($gte !== undefined && $gte === $lte && $gt === undefined && $lt === undefined) return numeric(ref, '=', $gte);
  for (const [op, v] of [
    ['>', $gt],
    ['>=', $gte],
    ['<', $lt],
    ['<=', $lte],
  ] as const) {
    if (v === undefined) continue;
    const b = numeric(ref, op, v);
    if ('reason' in b) return b;
    bounds.push(b.ok);
  }
  if (bounds.length === 0) return { reason: `it sets no bound on ${target.name}` };
  return { ok: bounds.length === 1 ? bounds[0]! : `(${bounds.join(' and ')})` };
}

function numeric(ref: string, op: string, v: number): Outcome<string> {
  const n = number(v);
  return n === undefined ? { reason: `the number ${v} cannot be written` } : { ok: `${ref} ${op} ${n}` };
}

type Ast = ReturnType<typeof parseFormula>;

/** The formula functions with an XPath equivalent (the importer's table, reversed). */
const FUNCTIONS: Record<string, string> = {
  IF: 'if',
  CONCATENATE: 'concat',
  INT: 'int',
  ABS: 'abs',
  SQRT: 'sqrt',
  POWER: 'pow',
  EXP: 'exp',
  LN: 'log',
  LOG10: 'log10',
  LEN: 'string-length',
  TODAY: 'today',
  NOW: 'now',
  NOT: 'not',
  MIN: 'min',
  MAX: 'max',
  ROUND: 'round',
};
const INFIX: Record<string, string> = { AND: 'and', OR: 'or', MOD: 'mod' };
const OPERATORS: Record<string, string> = {
  '+': '+',
  '-': '-',
  '*': '*',
  '/': 'div',
  '=': '=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** A formula → `calculation`; `nameOf` names the question a reference Q{block}_{item} points to. */
export function formulaToXPath(formula: string, nameOf: (item: number) => Outcome<string>): Outcome<string> {
  let tree: Ast;
  try {
    tree = parseFormula(formula);
  } catch (err) {
    return { reason: `it does not compile (${(err as Error).message})` };
  }
  let reason: string | undefined;
  const fail = (r: string) => {
    reason ??= r;
    return '0';
  };
  // Nested operations are bracketed, the way the importer writes its formulas, so that the tree comes back as it was.
  const print = (e: Ast, top: boolean): string => {
    const wrap = (s: string) => (top ? s : `(${s})`);
    switch (e.k) {
      case 'num':
        return number(e.v) ?? fail(`the number ${e.v} cannot be written`);
      case 'str':
        return quote(e.v) ?? fail('a text holds both kinds of quotes');
      case 'bool':
        return e.v ? 'true()' : 'false()';
      case 'ref': {
        if (e.item === '*') return fail(`Q${e.block}_* (every question of a category) has no XLSForm equivalent`);
        const n = nameOf(e.item);
        return 'ok' in n ? `\${${n.ok}}` : fail(n.reason);
      }
      case 'name':
        return fail(`the name ${e.name} is not a question reference`);
      case 'missing':
        return fail('an empty argument has no XLSForm equivalent');
      case 'neg':
        return `-${print(e.x, false)}`;
      case 'pos':
        return print(e.x, top);
      case 'pct':
        return wrap(`${print(e.x, false)} div 100`);
      case 'bin': {
        if (e.op === '&') return `concat(${print(e.a, true)}, ${print(e.b, true)})`;
        if (e.op === '^') return `pow(${print(e.a, true)}, ${print(e.b, true)})`;
        return wrap(`${print(e.a, false)} ${OPERATORS[e.op]!} ${print(e.b, false)}`);
      }
      case 'call': {
        const infix = INFIX[e.name];
        if (infix) {
          if (e.args.length < 2 || (infix === 'mod' && e.args.length !== 2))
            return fail(`${e.name}() with ${e.args.length} arguments has no XLSForm equivalent`);
          return wrap(e.args.map((a) => print(a, false)).join(` ${infix} `));
        }
        const fn = FUNCTIONS[e.name];
        if (!fn) return fail(`${e.name}() has no XLSForm equivalent`);
        return `${fn}(${e.args.map((a) => print(a, true)).join(', ')})`;
      }
    }
  };
  const out = print(tree, true);
  return reason ? { reason } : { ok: out };
}

/** Answer rules → `constraint`, an AND of bounds on `.`, its length, its choice count and a regex(). */
export function rulesToConstraint(item: Item): { constraint: string; lost: string[] } {
  const o = item.options;
  const parts: string[] = [];
  const lost: string[] = [];
  const bound = (
    subject: string,
    b: { active: boolean; value: number | string } | undefined,
    op: '>=' | '<=',
    what: string,
  ) => {
    if (!b?.active) return;
    if (typeof b.value === 'string') {
      if (item.type !== 'date') return void lost.push(`its ${what} "${b.value}" is not a number`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(b.value)) return void lost.push(`its ${what} "${b.value}" is not a date`);
      return void parts.push(`${subject} ${op} date('${b.value}')`);
    }
    const n = number(b.value);
    if (n === undefined) lost.push(`its ${what} ${b.value} cannot be written`);
    else parts.push(`${subject} ${op} ${n}`);
  };
  if (item.type === 'number' || item.type === 'currency' || item.type === 'date') {
    bound('.', o.minimum, '>=', 'minimum');
    bound('.', o.maximum, '<=', 'maximum');
  }
  if (item.type === 'open' || item.type === 'barcode') {
    bound('string-length(.)', o.minLength, '>=', 'fewest characters');
    bound('string-length(.)', o.maxLength, '<=', 'most characters');
    if (o.pattern?.active) {
      const q = quote(o.pattern.value);
      if (q === undefined) lost.push('its pattern holds both kinds of quotes');
      else parts.push(`regex(., ${q})`);
    }
  }
  if (item.type === 'choice' && o.multiselect) {
    bound('count-selected(.)', o.minChoices, '>=', 'fewest choices');
    bound('count-selected(.)', o.maxChoices, '<=', 'most choices');
  }
  return { constraint: parts.join(' and '), lost };
}
