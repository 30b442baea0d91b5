// Forms from files: a question list (category, question, type, choices, required, code) or an XLSForm (the ODK and
// KoboToolbox standard: survey, choices and settings sheets). What cannot be converted is reported row by row.
import {
  addBlock,
  addChoice,
  addItem,
  addLanguage,
  newSchemaBody,
  updateBlock,
  updateItem,
  type ConditionEntry,
  type ItemType,
  type SchemaBody,
} from '@fieldwork/sampler';

export type Row = Record<string, string>;
export interface Note {
  sheet: string;
  row: number;
  message: string;
}
export interface Converted {
  body: SchemaBody;
  notes: Note[];
  questions: number;
  name?: string;
}

const yes = (v: string | undefined) => /^(yes|true|1|y)$/i.test((v ?? '').trim());

// The question list.

const LIST_TYPES: Record<string, { type: ItemType; multi?: boolean; decimal?: boolean }> = {
  binary: { type: 'binary' },
  'yes/no': { type: 'binary' },
  choice: { type: 'choice' },
  single: { type: 'choice' },
  multichoice: { type: 'choice', multi: true },
  multiple: { type: 'choice', multi: true },
  open: { type: 'open' },
  text: { type: 'open' },
  number: { type: 'number' },
  integer: { type: 'number' },
  decimal: { type: 'number', decimal: true },
  date: { type: 'date' },
  currency: { type: 'currency' },
  geotag: { type: 'geotag' },
  location: { type: 'geotag' },
  calculated: { type: 'calculated' },
  barcode: { type: 'barcode' },
  image: { type: 'image' },
  photo: { type: 'image' },
  signature: { type: 'signature' },
  instruction: { type: 'instruction' },
  note: { type: 'instruction' },
};

/** Rows with columns category, question, type, choices (separated by |), required, code, min, max, formula. */
export function fromQuestionList(rows: Row[], projectType: string): Converted {
  let body = newSchemaBody(projectType);
  const notes: Note[] = [];
  const blocks = new Map<string, number>();
  let questions = 0;
  rows.forEach((r, i) => {
    const row = i + 2;
    const label = (r.question ?? r.label ?? '').trim();
    const kind = LIST_TYPES[(r.type ?? '').trim().toLowerCase()];
    if (label === '') return notes.push({ sheet: 'questions', row, message: 'The question has no text.' });
    if (!kind) return notes.push({ sheet: 'questions', row, message: `Unknown type "${r.type ?? ''}"; use one of ${Object.keys(LIST_TYPES).join(', ')}.` });
    const category = (r.category ?? '').trim() || 'Questions';
    if (!blocks.has(category)) {
      const made = addBlock(body, { en: category });
      body = made.body;
      blocks.set(category, made.id);
    }
    const made = addItem(body, blocks.get(category)!, kind.type, 'en', kind.type === 'binary' ? label : label);
    body = made.body;
    const code = (r.code ?? '').trim();
    const options: Record<string, unknown> = { isRequiredQuestion: yes(r.required) };
    if (kind.multi) options.multiselect = true;
    if (kind.type === 'number') {
      options.allowDecimal = kind.decimal === true;
      if ((r.min ?? '') !== '') options.minimum = { active: true, value: Number(r.min) };
      if ((r.max ?? '') !== '') options.maximum = { active: true, value: Number(r.max) };
    }
    if (kind.type === 'calculated') options.formula = (r.formula ?? '').trim();
    body = updateItem(body, made.id, { options, ...(code ? { codeName: code } : {}), ...(kind.type === 'instruction' ? { instruction: { en: label } } : {}) });
    if (kind.type === 'choice') {
      const choices = (r.choices ?? '').split('|').map((c) => c.trim()).filter(Boolean);
      if (choices.length === 0) notes.push({ sheet: 'questions', row, message: 'A choice question needs choices (separated by |).' });
      for (const c of choices) body = addChoice(body, made.id, 'en', c).body;
    }
    if (kind.type !== 'instruction') questions++;
  });
  return { body, notes, questions };
}

// XLSForm.

const XLS_TYPES: Record<string, { type: ItemType; decimal?: boolean }> = {
  text: { type: 'open' },
  string: { type: 'open' },
  integer: { type: 'number' },
  int: { type: 'number' },
  decimal: { type: 'number', decimal: true },
  date: { type: 'date' },
  geopoint: { type: 'geotag' },
  image: { type: 'image' },
  photo: { type: 'image' },
  barcode: { type: 'barcode' },
  calculate: { type: 'calculated' },
  note: { type: 'instruction' },
  acknowledge: { type: 'binary' },
};
const METADATA = new Set(['start', 'end', 'today', 'deviceid', 'subscriberid', 'simserial', 'phonenumber', 'username', 'email', 'audit', 'calculate_here']);

/** The labels of a row: `label` or `label::English (en)` columns, by language code. */
function labels(row: Row, column = 'label'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v.trim() === '') continue;
    if (k === column) out.default = v.trim();
    const m = new RegExp(`^${column}::(.+?)(?:\\s*\\((\\w{2,3})\\))?$`, 'i').exec(k);
    if (m) out[(m[2] ?? m[1]!.slice(0, 2)).toLowerCase()] = v.trim();
  }
  return out;
}

export function fromXlsForm(survey: Row[], choices: Row[], settings: Row[], projectType: string): Converted {
  const notes: Note[] = [];
  const setting = settings[0] ?? {};
  const allLabels = [...survey, ...choices].flatMap((r) => Object.keys(labels(r)));
  const langs = [...new Set(allLabels.filter((l) => l !== 'default'))];
  const primary = (setting.default_language ?? '').match(/\((\w{2,3})\)/)?.[1]?.toLowerCase() ?? langs[0] ?? 'en';
  let body = newSchemaBody(projectType, { iso_code_1: primary, name: primary === 'en' ? 'English' : primary });
  for (const l of langs) if (l !== primary) body = addLanguage(body, l, l);
  const text = (row: Row, column = 'label') => {
    const t = labels(row, column);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(t)) out[k === 'default' ? primary : k] = v;
    return out;
  };

  const lists = new Map<string, Row[]>();
  for (const c of choices) {
    const list = (c.list_name ?? c['list name'] ?? '').trim();
    if (list) lists.set(list, [...(lists.get(list) ?? []), c]);
  }

  const stack: number[] = [];
  const byName = new Map<string, { id: number; blockId: number; list?: string }>();
  const pendingRelevant: { row: number; expr: string; target: { type: 'block' | 'item'; id: number }; blockId: number }[] = [];
  const pendingCalcs: { row: number; id: number; expr: string }[] = [];
  let questions = 0;
  const currentBlock = () => {
    if (stack.length === 0) {
      const made = addBlock(body, { [primary]: setting.form_title?.trim() || 'Questions' });
      body = made.body;
      stack.push(made.id);
    }
    return stack[stack.length - 1]!;
  };

  survey.forEach((r, i) => {
    const row = i + 2;
    const rawType = (r.type ?? '').trim();
    if (rawType === '') return;
    const [head = '', rest = ''] = rawType.split(/\s+/, 2);
    const name = (r.name ?? '').trim();
    if (head === 'begin' || head === 'end' || head === 'begin_group' || head === 'end_group' || head === 'begin_repeat' || head === 'end_repeat') {
      const kind = head.includes('_') ? head.split('_')[1]! : rest;
      const opening = head.startsWith('begin');
      if (kind === 'repeat' && opening) notes.push({ sheet: 'survey', row, message: `Repeat "${name}" became a plain category (repeats are not converted).` });
      if (opening) {
        const made = addBlock(body, Object.keys(text(r)).length ? text(r) : { [primary]: name }, stack.length > 0 ? currentBlock() : undefined);
        body = made.body;
        stack.push(made.id);
        if ((r.relevant ?? '').trim()) pendingRelevant.push({ row, expr: r.relevant!.trim(), target: { type: 'block', id: made.id }, blockId: made.id });
      } else stack.pop();
      return;
    }
    if (METADATA.has(head)) return notes.push({ sheet: 'survey', row, message: `Metadata "${head}" is recorded by Fieldwork itself; skipped.` });
    let type: ItemType;
    let multi = false;
    let list: string | undefined;
    let decimal = false;
    if (head === 'select_one' || head === 'select_multiple' || head === 'select_one_from_file') {
      type = 'choice';
      multi = head === 'select_multiple';
      list = rest;
      if (!lists.has(rest)) notes.push({ sheet: 'survey', row, message: `No choices named "${rest}".` });
    } else if (XLS_TYPES[head]) {
      type = XLS_TYPES[head].type;
      decimal = XLS_TYPES[head].decimal === true;
      if (head === 'image' && /signature/i.test(r.appearance ?? '')) type = 'signature';
    } else {
      return notes.push({ sheet: 'survey', row, message: `Type "${rawType}" is not converted.` });
    }
    const blockId = currentBlock();
    const label = text(r);
    const made = addItem(body, blockId, type, primary, label[primary] ?? name);
    body = made.body;
    const options: Record<string, unknown> = { isRequiredQuestion: yes(r.required) };
    if (type === 'number') options.allowDecimal = decimal;
    if (type === 'number') {
      options.minimum = { active: false, value: 0 };
      options.maximum = { active: false, value: 0 };
    }
    if (multi) options.multiselect = true;
    body = updateItem(body, made.id, {
      name: Object.keys(label).length ? label : { [primary]: name },
      ...(name ? { codeName: name } : {}),
      options,
      ...(type === 'instruction' ? { instruction: Object.keys(label).length ? label : { [primary]: name } } : {}),
    });
    if (type === 'choice' && list) {
      for (const c of lists.get(list) ?? []) body = addChoice(body, made.id, primary, text(c)[primary] ?? c.name ?? '', (c.name ?? '').trim()).body;
    }
    if (type === 'binary') notes.push({ sheet: 'survey', row, message: `"${name}" (acknowledge) became a yes/no question.` });
    if (type === 'calculated') pendingCalcs.push({ row, id: made.id, expr: (r.calculation ?? '').trim() });
    if ((r.relevant ?? '').trim()) pendingRelevant.push({ row, expr: r.relevant!.trim(), target: { type: 'item', id: made.id }, blockId });
    if ((r.constraint ?? '').trim()) notes.push({ sheet: 'survey', row, message: `The constraint of "${name}" is not converted.` });
    if (name) byName.set(name, { id: made.id, blockId, ...(list ? { list } : {}) });
    if (type !== 'instruction') questions++;
  });

  // ${name} references become Q{category}_{question}; a few XPath functions have spreadsheet equivalents.
  for (const c of pendingCalcs) {
    let formula = c.expr;
    let ok = formula !== '';
    formula = formula.replace(/\$\{([\w.-]+)\}/g, (_m, n: string) => {
      const t = byName.get(n);
      if (!t) ok = false;
      return t ? `Q${t.blockId}_${t.id}` : n;
    });
    formula = formula.replace(/\bdiv\b/g, '/').replace(/\bmod\b/g, ' MOD ').replace(/\bif\(/g, 'IF(').replace(/\bconcat\(/g, 'CONCATENATE(').replace(/\bround\(/g, 'ROUND(');
    if (/ MOD |\b(coalesce|selected|count-selected|jr:|position|once|today|now)\b/.test(formula)) ok = false;
    if (ok) body = updateItem(body, c.id, { options: { formula } });
    else notes.push({ sheet: 'survey', row: c.row, message: `The calculation "${c.expr}" is not converted; write it again in the builder.` });
  }

  // relevant: ${q} = 'x', selected(${q}, 'x') or ${q} > n become conditions; anything else is reported.
  for (const p of pendingRelevant) {
    const entries = relevantToConditions(p.expr, byName, body);
    if (!entries) {
      notes.push({ sheet: 'survey', row: p.row, message: `The relevance "${p.expr}" is not converted.` });
      continue;
    }
    if (p.target.type === 'block') body = updateBlock(body, p.target.id, { conditions: entries });
    else {
      // A question with its own relevance goes into a conditional category of its own, where it stands.
      const made = addBlock(body, {}, p.blockId);
      body = made.body;
      const parent = body.entities.blocks[p.blockId]!;
      const at = parent.entities.findIndex((e) => e.type === 'item' && e.id === p.target.id);
      const entities = parent.entities.filter((e) => !(e.type === 'block' && e.id === made.id));
      entities.splice(at, 1, { type: 'block', id: made.id });
      body = updateBlock(body, p.blockId, {});
      body.entities.blocks[p.blockId]!.entities = entities;
      body.entities.blocks[made.id]!.entities = [{ type: 'item', id: p.target.id }];
      body = updateBlock(body, made.id, { conditions: entries });
    }
  }
  return { body, notes, questions, ...(setting.form_title ? { name: setting.form_title.trim() } : {}) };
}

function relevantToConditions(expr: string, byName: Map<string, { id: number; list?: string }>, body: SchemaBody): ConditionEntry[] | undefined {
  const parts = expr.split(/\s+(and|or)\s+/i);
  const out: ConditionEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!.trim();
    if (i % 2 === 1) {
      out.push({ operator: part.toUpperCase() as 'AND' | 'OR' });
      continue;
    }
    const eq = /^\$\{([\w.-]+)\}\s*=\s*'([^']*)'$/.exec(part) ?? /^selected\(\s*\$\{([\w.-]+)\}\s*,\s*'([^']*)'\s*\)$/.exec(part);
    const cmp = /^\$\{([\w.-]+)\}\s*(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)$/.exec(part);
    if (eq) {
      const q = byName.get(eq[1]!);
      const choiceIds = q ? (body.entities.items[q.id]?.options.choices ?? []) : [];
      const choice = choiceIds.find((c) => body.entities.choices[c]?.codeName === eq[2]);
      if (!q || choice === undefined) return undefined;
      out.push({ itemId: q.id, schemaId: 0, condition: [choice], finalized: true });
    } else if (cmp) {
      const q = byName.get(cmp[1]!);
      if (!q) return undefined;
      const key = ({ '>': '$gt', '>=': '$gte', '<': '$lt', '<=': '$lte' } as const)[cmp[2] as '>' | '>=' | '<' | '<='];
      out.push({ itemId: q.id, schemaId: 0, condition: { [key]: Number(cmp[3]) }, finalized: true });
    } else return undefined;
  }
  return out;
}
