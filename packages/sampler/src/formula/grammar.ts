// The formula language (spec 001 §5) in ohm-js, with Excel's precedence, loosest first: comparisons, &, + -,
// * /, ^ (left-associative, as in Excel: 2^3^2 = 64), postfix %, then unary - and + (so -2^2 = 4, as in Excel).
// The spec lists NOT among the comparison operators ("= > < >= <> NOT"): `a NOT b` is `a <> b` (the infix form of
// the spec's parser); NOT(x) stays the function. An argument may be empty (SUM(1,,2)), as in Excel.
import * as ohm from 'ohm-js';

export const grammar = ohm.grammar(String.raw`
Formula {
  Formula = "="? Expr end

  Expr = Comparison

  Comparison
    = Comparison "<>" Concat  -- ne
    | Comparison "<=" Concat  -- le
    | Comparison ">=" Concat  -- ge
    | Comparison "=" Concat   -- eq
    | Comparison "<" Concat   -- lt
    | Comparison ">" Concat   -- gt
    | Comparison not Concat   -- not
    | Concat

  Concat
    = Concat "&" Additive  -- join
    | Additive

  Additive
    = Additive "+" Multiplicative  -- plus
    | Additive "-" Multiplicative  -- minus
    | Multiplicative

  Multiplicative
    = Multiplicative "*" Power  -- times
    | Multiplicative "/" Power  -- divide
    | Power

  Power
    = Power "^" Postfix  -- power
    | Postfix

  Postfix
    = Postfix "%"  -- percent
    | Unary

  Unary
    = "-" Unary  -- neg
    | "+" Unary  -- pos
    | Primary

  Primary
    = "(" Expr ")"  -- paren
    | Call
    | time
    | number
    | string
    | boolean
    | ref
    | ident  -- name

  Call
    = ident "(" ")"                           -- none
    | ident "(" NonemptyListOf<Arg, ","> ")"  -- args

  Arg
    = Expr  -- given
    |       -- missing

  time = digit digit? ":" digit digit (":" digit digit)? ampm?
  ampm = " "* (caseInsensitive<"AM"> | caseInsensitive<"PM">) ~identPart

  number
    = digit+ ("." digit*)? exponent?  -- whole
    | "." digit+ exponent?             -- fraction
  exponent = ("e" | "E") ("+" | "-")? digit+

  string
    = "\"" dqChar* "\""  -- double
    | "'" sqChar* "'"    -- single
  dqChar = "\"\"" | ~"\"" any
  sqChar = "''" | ~"'" any

  not = caseInsensitive<"NOT"> ~identPart

  boolean = (caseInsensitive<"TRUE"> | caseInsensitive<"FALSE">) ~identPart

  ref = ("Q" | "q") digit+ "_" (digit+ | "*") ~identPart

  ident = letter identPart*
  identPart = alnum | "_" | "."
}
`);
