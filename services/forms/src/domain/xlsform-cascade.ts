// XLSForm choice filters (the survey's `choice_filter` column) as cascading choices: the common cascades compare an
// extra column of the choices sheet with an earlier select_one question — `col=${q}`, `${q}=col`, `selected(${q}, col)`
// — and `selected(col, ${q})` offers a choice whose column lists the question's answer among several names.

/** A choice filter Fieldwork converts: the choices column, the filtering question, and whether the column lists names. */
export interface ParsedChoiceFilter {
  column: string;
  question: string;
  /** `selected(col, ${q})`: the column holds names separated by spaces, each a choice the choice is offered for. */
  many: boolean;
}

const NAME = String.raw`([\p{L}_][\p{L}\p{N}_.-]*)`;
const REF = String.raw`(['"]?)\$\{\s*${NAME}\s*\}{Q}`;
const ref = (n: number) => REF.replace('{Q}', `\\${n}`);
const FORMS: { re: RegExp; column: number; question: number; many: boolean }[] = [
  { re: new RegExp(String.raw`^${NAME}\s*=\s*${ref(2)}$`, 'u'), column: 1, question: 3, many: false },
  { re: new RegExp(String.raw`^${ref(1)}\s*=\s*${NAME}$`, 'u'), column: 3, question: 2, many: false },
  {
    re: new RegExp(String.raw`^selected\s*\(\s*${ref(1)}\s*,\s*${NAME}\s*\)$`, 'u'),
    column: 3,
    question: 2,
    many: false,
  },
  {
    re: new RegExp(String.raw`^selected\s*\(\s*${NAME}\s*,\s*${ref(2)}\s*\)$`, 'u'),
    column: 1,
    question: 3,
    many: true,
  },
];

/** The cascade a choice filter expresses, or undefined for any other filter (a loss). */
export function parseChoiceFilter(text: string): ParsedChoiceFilter | undefined {
  let t = text.trim();
  while (/^\(.*\)$/s.test(t) && balanced(t.slice(1, -1))) t = t.slice(1, -1).trim();
  for (const f of FORMS) {
    const m = f.re.exec(t);
    if (m) return { column: m[f.column]!.toLowerCase(), question: m[f.question]!, many: f.many };
  }
  return undefined;
}

function balanced(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}
