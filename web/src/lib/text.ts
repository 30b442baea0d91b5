// Small text rules of the spec.

/** Project names are displayed in title case. */
export function titleCase(text: string): string {
  return text.toLowerCase().replace(/(^|[\s\-_/])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** The profile name is split into first and last name: the first word and the last word (spec 000 §5). */
export function splitName(name: string): { first_name: string; last_name: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { first_name: '', last_name: '' };
  return { first_name: words[0]!, last_name: words.length > 1 ? words[words.length - 1]! : '' };
}
