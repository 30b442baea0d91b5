// The XPath expressions of XLSForm columns (relevant, calculation, constraint), parsed into a small tree and turned
// into what the sampler can hold: conditions, formulas, answer rules. Whatever cannot be expressed answers a reason,
// which the converter reports. Parsing is linear and bounded (length and depth), so no expression can hold the service.

export type Expr =
  | { k: 'ref'; name: string }
  | { k: 'self' }
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'call'; fn: string; args: Expr[] }
  | { k: 'bin'; op: string; l: Expr; r: Expr }
  | { k: 'neg'; e: Expr };

/** Longest expression and deepest nesting we parse; longer ones are reported, not converted. */
export const EXPR_LIMITS = { chars: 4000, depth: 64 } as const;

type Tok = { t: 'ref' | 'num' | 'str' | 'name' | 'op' | 'self'; v: string };

class Unsupported extends Error {}

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '$' && src[i + 1] === '{') {
      const end = src.indexOf('}', i);
      if (end < 0) throw new Unsupported('an unclosed ${');
      out.push({ t: 'ref', v: src.slice(i + 2, end).trim() });
      i = end + 1;
      continue;
    }
    if (c === "'" || c === '"' || c === '‘' || c === '’' || c === '“' || c === '”') {
      const close = c === '‘' ? '’' : c === '“' ? '”' : c;
      const end = src.indexOf(close, i + 1);
      if (end < 0) throw new Unsupported('an unclosed string');
      out.push({ t: 'str', v: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const num = /^(\d+(\.\d*)?|\.\d+)/.exec(src.slice(i, i + 40));
    if (num) {
      out.push({ t: 'num', v: num[0] });
      i += num[0].length;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '!=' || two === '<=' || two === '>=') {
      out.push({ t: 'op', v: two });
      i += 2;
      continue;
    }
    if ('=<>+-*(),|/[]@'.includes(c)) {
      out.push({ t: 'op', v: c });
      i++;
      continue;
    }
    if (c === '.') {
      out.push({ t: 'self', v: src[i + 1] === '.' ? '..' : '.' });
      i += src[i + 1] === '.' ? 2 : 1;
      continue;
    }
    const name = /^[\p{L}_][\p{L}\p{N}_.:-]*/u.exec(src.slice(i, i + 200));
    if (!name) throw new Unsupported(`the character "${c}"`);
    out.push({ t: 'name', v: name[0] });
    i += name[0].length;
  }
  return out;
}

const BINARY: Record<string, number> = {
  or: 1,
  and: 2,
  '=': 3,
  '!=': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  div: 6,
  mod: 6,
};

/** The tree of an expression, or why it cannot be read. */
export function parseXPath(src: string): Expr | { unsupported: string } {
  if (src.length > EXPR_LIMITS.chars) return { unsupported: `it is longer than ${EXPR_LIMITS.chars} characters` };
  try {
    const toks = tokenize(src);
    let pos = 0;
    const peek = () => toks[pos];
    const opOf = (tok: Tok | undefined) =>
      tok && (tok.t === 'op' || tok.t === 'name') && BINARY[tok.v] !== undefined ? tok.v : undefined;
    const expect = (v: string) => {
      const tok = toks[pos++];
      if (!tok || tok.v !== v) throw new Unsupported(`a missing "${v}"`);
    };
    const primary = (depth: number): Expr => {
      if (depth > EXPR_LIMITS.depth) throw new Unsupported(`it nests deeper than ${EXPR_LIMITS.depth} levels`);
      const tok = toks[pos++];
      if (!tok) throw new Unsupported('it ends too early');
      if (tok.t === 'ref') return { k: 'ref', name: tok.v };
      if (tok.t === 'num') return { k: 'num', v: Number(tok.v) };
      if (tok.t === 'str') return { k: 'str', v: tok.v };
      if (tok.t === 'self') {
        if (tok.v !== '.') throw new Unsupported('a path (..)');
        return { k: 'self' };
      }
      if (tok.v === '-') return { k: 'neg', e: primary(depth + 1) };
      if (tok.v === '(') {
        const e = binary(0, depth + 1);
        expect(')');
        return e;
      }
      if (tok.t === 'name' && peek()?.v === '(') {
        pos++;
        const args: Expr[] = [];
        if (peek()?.v !== ')') {
          for (;;) {
            args.push(binary(0, depth + 1));
            if (peek()?.v !== ',') break;
            pos++;
          }
        }
        expect(')');
        return { k: 'call', fn: tok.v.toLowerCase(), args };
      }
      throw new Unsupported(tok.v === '/' || tok.t === 'name' ? 'an XPath path' : `"${tok.v}"`);
    };
    const binary = (min: number, depth: number): Expr => {
      let left = primary(depth);
      for (let op = opOf(peek()); op !== undefined && BINARY[op]! > min; op = opOf(peek())) {
        pos++;
        left = { k: 'bin', op, l: left, r: binary(BINARY[op]!, depth + 1) };
      }
      return left;
    };
    const e = binary(0, 0);
    if (pos < toks.length) throw new Unsupported(`"${toks[pos]!.v}" where the expression should end`);
    return e;
  } catch (err) {
    if (err instanceof Unsupported) return { unsupported: err.message };
    throw err;
  }
}
