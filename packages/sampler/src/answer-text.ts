// An answer as text (spec 001 §5 Answer-as-text), and which answer types can be linked to which.
import type { ItemType } from './constants.js';
import { isAnswered } from './conditions.js';
import { text, type Item, type SchemaBody } from './schema.js';

/** '?' when the answer does not fit the question's type; long text cut with an ellipsis. */
export function answerText(body: SchemaBody, item: Item, answer: unknown, lang: string, maxLength?: number): string {
  if (!isAnswered(answer)) return '';
  let out: string;
  switch (item.type) {
    case 'choice':
    case 'binary': {
      const ids = Array.isArray(answer) ? answer : [answer];
      const names = ids
        .map((id) => body.entities.choices[String(id)])
        .map((c) => (c && !c.deleted ? text(c.name, lang, body.primary_language) : undefined));
      out = names.some((n) => n === undefined) ? '?' : names.join(', ');
      break;
    }
    case 'number':
    case 'currency':
    case 'calculated':
      out =
        typeof answer === 'number' && Number.isFinite(answer)
          ? String(answer)
          : typeof answer === 'string' && answer.trim() !== '' && Number.isFinite(Number(answer))
            ? answer
            : '?';
      break;
    case 'date': {
      const d = new Date(String(answer));
      out = Number.isNaN(d.getTime()) ? '?' : d.toISOString().slice(0, 10);
      break;
    }
    case 'geotag': {
      const g = answer as { latitude?: unknown; longitude?: unknown; coordinates?: unknown };
      const c = Array.isArray(g.coordinates) ? g.coordinates : [g.longitude, g.latitude];
      out = typeof c[0] === 'number' && typeof c[1] === 'number' ? `${c[1]}, ${c[0]}` : '?';
      break;
    }
    case 'open':
    case 'barcode':
    case 'concatenation':
      out = typeof answer === 'string' || typeof answer === 'number' ? String(answer) : '?';
      break;
    default:
      out = typeof answer === 'string' ? answer : '?';
  }
  return maxLength !== undefined && out.length > maxLength ? `${out.slice(0, Math.max(0, maxLength - 1))}…` : out;
}

/** Which answer types an answer may be linked to (spec 001 §5). */
export const LINKABLE: Partial<Record<ItemType, readonly ItemType[]>> = {
  binary: ['binary', 'choice', 'open'],
  choice: ['choice', 'open'],
  number: ['number', 'open'],
  open: ['open'],
  currency: ['currency', 'open'],
  date: ['date', 'open'],
  reference_project: ['reference_project', 'choice'],
};

export function canLink(from: ItemType, to: ItemType): boolean {
  return LINKABLE[from]?.includes(to) ?? false;
}
