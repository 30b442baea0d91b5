// The syntax tree of a formula, as both parsers build it (fast-parse.ts for the common forms, ohm-js in compile.ts
// for the rest) and compile.ts compiles it. Types only.
export type AstNode =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'bool'; v: boolean }
  | { k: 'ref'; block: number; item: number | '*' }
  | { k: 'name'; name: string }
  | { k: 'call'; name: string; args: AstNode[] }
  | { k: 'missing' }
  | { k: 'neg' | 'pos' | 'pct'; x: AstNode }
  | { k: 'bin'; op: string; a: AstNode; b: AstNode };
