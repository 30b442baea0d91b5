// The spec's fixed messages (spec 000 §8, spec 001) stay verbatim English in the code and on the wire; they are shown
// in the user's language by their English text, wherever they come from (a fallback of the web app or a server body).
import i18n from 'i18next';
import { en } from './en';

const entries = Object.entries(en.known);
const byText = new Map(entries.filter(([, text]) => !text.includes('{{')).map(([key, text]) => [text, key]));
/** Texts with variables (a bound, a question's name) match as patterns: "… less than or equal to {{value}}." */
const patterns = entries
  .filter(([, text]) => text.includes('{{'))
  .map(([key, text]) => ({
    key,
    re: new RegExp(
      `^${text
        .split(/(\{\{\w+\}\})/)
        .map((part) => {
          const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
          return name ? `(?<${name}>.+?)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('')}$`,
      's',
    ),
  }));

function lookUp(text: string): [string, Record<string, string>] | undefined {
  const key = byText.get(text);
  if (key) return [key, {}];
  for (const p of patterns) {
    const m = p.re.exec(text);
    if (m) return [p.key, { ...m.groups }];
  }
  return undefined;
}

/** The message in the current language when it is one of the spec's known texts, else the text as it is. */
export function translateKnown(text: string): string {
  const found = text ? lookUp(text) : undefined;
  // Before i18next is set up (a unit test of a plain function), the English text stands.
  const translated: unknown =
    found && i18n.isInitialized
      ? i18n.t(`known.${found[0]}`, { ...found[1], interpolation: { escapeValue: false } })
      : undefined;
  return typeof translated === 'string' && translated !== '' ? translated : text;
}
