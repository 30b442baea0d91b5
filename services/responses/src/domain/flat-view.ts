// The flat view of a project's responses for SQL access (BI tools): one row per response, the response fields, then
// one column per question of every form of the project, in form order, named by the question's code name. Pure:
// builds the SQL text from the forms; identifiers are quoted and values are literals of our own (ids, codes).
import { isQuestion, itemsInOrder, type Item, type SchemaBody } from '@fieldwork/sampler';

const BASE = [
  'response_id',
  'schema_id',
  'parent_id',
  'user_id',
  'site_id',
  'group_id',
  'team_id',
  'device_id',
  'completed',
  'time_created',
  'time_updated',
  'time_completed',
  'time_uploaded',
];

/** A quoted SQL identifier. */
export const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
/** A quoted SQL string literal. */
export const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Column names for questions: the code name, lower-cased, safe, unique (a suffix for repeats), at most 63 bytes. */
function namer(): (wanted: string) => string {
  const taken = new Set(BASE.map((c) => c.toLowerCase()));
  return (wanted) => {
    const base = (
      wanted
        .toLowerCase()
        .replace(/[^a-z0-9_]+/g, '_')
        .replace(/^_+|_+$/g, '') || 'q'
    ).slice(0, 55);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return name;
  };
}

function answerExpr(body: SchemaBody, item: Item, part?: 'lat' | 'lng'): string {
  const v = `r.data->'0'->${literal(String(item.id))}`;
  const txt = `(r.data->'0'->>${literal(String(item.id))})`;
  switch (item.type) {
    case 'number':
    case 'currency':
    case 'calculated':
      return `case when jsonb_typeof(${v}) = 'number' then ${txt}::numeric end`;
    case 'date':
      return `case when ${txt} ~ '^\\d{4}-\\d{2}-\\d{2}' then left(${txt}, 10)::date end`;
    case 'geotag': {
      const k = part === 'lat' ? 1 : 0;
      return `case when jsonb_typeof(${v}->'coordinates'->${k}) = 'number' then (${v}->'coordinates'->>${k})::numeric end`;
    }
    case 'choice':
    case 'binary': {
      const cases = (item.options.choices ?? [])
        .map((id) => body.entities.choices[String(id)])
        .filter((c) => c !== undefined)
        .map((c) => `when ${literal(String(c.id))} then ${literal(c.codeName)}`)
        .join(' ');
      const one = (x: string) => (cases ? `case ${x} ${cases} else ${x} end` : x);
      return `case jsonb_typeof(${v}) when 'array' then (select string_agg(${one('x')}, ' | ') from jsonb_array_elements_text(${v}) x) when 'null' then null else ${one(txt)} end`;
    }
    default:
      return txt;
  }
}

/** The select of the flat view over `table` (schema-qualified) for one project. */
export function flatViewSql(table: string, projectId: number, forms: { id: number; body: SchemaBody }[]): string {
  const name = namer();
  const cols = BASE.map((c) => `r.${c}`);
  cols.push(
    `(r.geotag->'coordinates'->>1)::numeric as latitude`,
    `(r.geotag->'coordinates'->>0)::numeric as longitude`,
  );
  name('latitude');
  name('longitude');
  for (const form of forms) {
    for (const { item } of itemsInOrder(form.body)) {
      if (!isQuestion(item)) continue;
      const only = (e: string) => (forms.length > 1 ? `case when r.schema_id = ${form.id} then ${e} end` : e);
      if (item.type === 'geotag') {
        for (const part of ['lat', 'lng'] as const)
          cols.push(`${only(answerExpr(form.body, item, part))} as ${ident(name(`${item.codeName}_${part}`))}`);
      } else {
        cols.push(`${only(answerExpr(form.body, item))} as ${ident(name(item.codeName))}`);
      }
    }
  }
  return `select ${cols.join(',\n  ')}\nfrom ${table} r where r.project_id = ${Math.trunc(projectId)} and not r.deleted`;
}
