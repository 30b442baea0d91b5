// A fast path for the common forms of formulas: a recursive-descent reading of the same grammar (grammar.ts) that
// builds the same syntax tree as the ohm-js semantics, for formulas of ASCII text without time literals. It answers
// undefined at the first thing it is not sure of (an error, a time, a non-ASCII letter, anything unusual), and the
// caller then parses with ohm-js, which stays the grammar and gives the errors with their positions. A test checks that
// wherever the fast path answers, its tree equals ohm's (formula.test.ts: every conformance case and random formulas).
import type { AstNode } from './ast.js';

/** ohm's `space`: any character up to U+0020. */
const isSpace = (c: number) => c <= 0x20;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isIdentPart = (c: number) => isLetter(c) || isDigit(c) || c === 0x5f || c === 0x2e;

/** Thrown (one instance, made once) to leave the fast path. */
const BAIL = new Error('not on the fast path');

/** The syntax tree of `text`, or undefined when the fast path is not sure (then ohm-js parses it). */
export function fastParse(text: string): AstNode | undefined {
  const s = text;
  const n = s.length;
  let i = 0;

  const fail = (): never => {
    throw BAIL;
  };
  const code = () => (i < n ? s.charCodeAt(i) : -1);
  const skip = () => {
    while (i < n && isSpace(s.charCodeAt(i))) i++;
  };

  function comparison(): AstNode {
    let a = concat();
    for (;;) {
      skip();
      const c = code();
      let op: string;
      if (c === 0x3c /* < */) {
        const d = s.charCodeAt(i + 1);
        op = d === 0x3e ? '<>' : d === 0x3d ? '<=' : '<';
      } else if (c === 0x3e /* > */) op = s.charCodeAt(i + 1) === 0x3d ? '>=' : '>';
      else if (c === 0x3d /* = */) op = '=';
      else if ((c === 0x4e || c === 0x6e) && /^not/i.test(s.slice(i, i + 3)) && !isIdentPart(s.charCodeAt(i + 3))) {
        i += 3;
        a = { k: 'bin', op: '<>', a, b: concat() };
        continue;
      } else return a;
      i += op.length;
      a = { k: 'bin', op, a, b: concat() };
    }
  }

  function concat(): AstNode {
    let a = additive();
    for (;;) {
      skip();
      if (code() !== 0x26 /* & */) return a;
      i++;
      a = { k: 'bin', op: '&', a, b: additive() };
    }
  }

  function additive(): AstNode {
    let a = multiplicative();
    for (;;) {
      skip();
      const c = code();
      if (c !== 0x2b && c !== 0x2d) return a;
      i++;
      a = { k: 'bin', op: c === 0x2b ? '+' : '-', a, b: multiplicative() };
    }
  }

  function multiplicative(): AstNode {
    let a = power();
    for (;;) {
      skip();
      const c = code();
      if (c !== 0x2a && c !== 0x2f) return a;
      i++;
      a = { k: 'bin', op: c === 0x2a ? '*' : '/', a, b: power() };
    }
  }

  function power(): AstNode {
    let a = postfix();
    for (;;) {
      skip();
      if (code() !== 0x5e /* ^ */) return a;
      i++;
      a = { k: 'bin', op: '^', a, b: postfix() };
    }
  }

  function postfix(): AstNode {
    let x = unary();
    for (;;) {
      skip();
      if (code() !== 0x25 /* % */) return x;
      i++;
      x = { k: 'pct', x };
    }
  }

  function unary(): AstNode {
    skip();
    const c = code();
    if (c === 0x2d) {
      i++;
      return { k: 'neg', x: unary() };
    }
    if (c === 0x2b) {
      i++;
      return { k: 'pos', x: unary() };
    }
    return primary();
  }

  function primary(): AstNode {
    skip();
    const c = code();
    if (c === 0x28 /* ( */) {
      i++;
      const e = comparison();
      skip();
      if (code() !== 0x29) fail();
      i++;
      return e;
    }
    if (isDigit(c) || c === 0x2e) return number();
    if (c === 0x22 || c === 0x27) return string(c);
    if (isLetter(c)) return word();
    return fail();
  }

  function number(): AstNode {
    const start = i;
    if (code() === 0x2e) {
      i++;
      if (!isDigit(code())) fail();
      while (isDigit(code())) i++;
    } else {
      while (isDigit(code())) i++;
      if (code() === 0x3a /* : a time */) fail();
      if (code() === 0x2e) {
        i++;
        while (isDigit(code())) i++;
      }
    }
    const e = code();
    if (e === 0x65 || e === 0x45) {
      let j = i + 1;
      const sign = s.charCodeAt(j);
      if (sign === 0x2b || sign === 0x2d) j++;
      if (!isDigit(s.charCodeAt(j))) fail();
      while (isDigit(s.charCodeAt(j))) j++;
      i = j;
    }
    if (isIdentPart(code()) || code() === 0x3a) fail();
    return { k: 'num', v: Number(s.slice(start, i)) };
  }

  function string(quote: number): AstNode {
    const q = String.fromCharCode(quote);
    let out = '';
    i++;
    for (;;) {
      const j = s.indexOf(q, i);
      if (j < 0) fail();
      out += s.slice(i, j);
      if (s.charCodeAt(j + 1) === quote) {
        out += q;
        i = j + 2;
      } else {
        i = j + 1;
        return { k: 'str', v: out };
      }
    }
  }

  function word(): AstNode {
    const start = i;
    while (isIdentPart(code())) i++;
    if (code() >= 0x80) fail();
    const w = s.slice(start, i);
    let j = i;
    while (j < n && isSpace(s.charCodeAt(j))) j++;
    if (s.charCodeAt(j) === 0x28 /* ( */) {
      i = j + 1;
      return call(w.toUpperCase());
    }
    const upper = w.toUpperCase();
    if (upper === 'TRUE' || upper === 'FALSE') return { k: 'bool', v: upper === 'TRUE' };
    const m = /^[Qq](\d+)_(\d*)$/.exec(w);
    if (m) {
      if (m[2]) return { k: 'ref', block: Number(m[1]), item: Number(m[2]) };
      if (code() === 0x2a /* * */ && !isIdentPart(s.charCodeAt(i + 1)) && s.charCodeAt(i + 1) < 0x80) {
        i++;
        return { k: 'ref', block: Number(m[1]), item: '*' };
      }
    }
    return fail(); // a bare name: a compile error, which ohm reports
  }

  function call(name: string): AstNode {
    skip();
    if (code() === 0x29) {
      i++;
      return { k: 'call', name, args: [] };
    }
    const args: AstNode[] = [];
    for (;;) {
      skip();
      const c = code();
      args.push(c === 0x2c || c === 0x29 ? { k: 'missing' } : comparison());
      skip();
      const d = code();
      i++;
      if (d === 0x29) return { k: 'call', name, args };
      if (d !== 0x2c) fail();
    }
  }

  try {
    skip();
    if (code() === 0x3d) i++;
    const tree = comparison();
    skip();
    return i === n ? tree : undefined;
  } catch (err) {
    if (err === BAIL) return undefined;
    throw err;
  }
}
