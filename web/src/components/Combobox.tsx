// A searchable picker for long lists (a project's 2,000 profiles, its sites or collectors), where a <select> would
// list thousands of options in text order. The WAI-ARIA combobox pattern: a text box that filters a listbox as one
// types, arrows to move, Enter to choose, Escape to close. Options are in natural order (2 before 10, accents and case
// ignored); at most `limit` are drawn, with a line saying how many more match. With `onQueryChange` the search is the
// caller's (a server's): the options are drawn as given and `total` says how many match in all.
import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ComboOption {
  value: string;
  label: string;
}

const collators = new Map<string, Intl.Collator>();
/** Natural order: numbers by value, then case and accents ignored. */
export function naturalCompare(a: string, b: string, locale = 'en'): number {
  let c = collators.get(locale);
  if (!c) {
    c = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
    collators.set(locale, c);
  }
  return c.compare(a, b);
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The options whose label holds every word of the query (accents and case ignored), in natural order. */
export function matchOptions(options: readonly ComboOption[], query: string, locale = 'en'): ComboOption[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const hits = words.length === 0 ? [...options] : options.filter((o) => words.every((w) => fold(o.label).includes(w)));
  return hits.sort((a, b) => naturalCompare(a.label, b.label, locale));
}

export function Combobox({
  label,
  options,
  value,
  onChange,
  emptyLabel,
  testId,
  limit = 100,
  onQueryChange,
  total,
  chosenLabel,
}: {
  label: string;
  options: readonly ComboOption[];
  /** The chosen value, '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** When given, a first option with value '' (All responses, say). */
  emptyLabel?: string;
  testId?: string;
  limit?: number;
  /** The search is the caller's: told each change of the text, it passes the matching options. */
  onQueryChange?: (query: string) => void;
  /** With onQueryChange: how many options match in all (the options are a page of them). */
  total?: number;
  /** The chosen value's label when it is not among the options (a page of a server's search). */
  chosenLabel?: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const found = options.find((o) => o.value === value);
  const chosen = found ?? (chosenLabel !== undefined && value !== '' ? { value, label: chosenLabel } : undefined);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const remote = onQueryChange !== undefined;
  const matches = useMemo(
    () => (remote ? [...options] : matchOptions(options, query, i18n.language)),
    [remote, options, query, i18n.language],
  );
  const count = remote ? (total ?? matches.length) : matches.length;
  const setSearch = (q: string) => {
    setQuery(q);
    onQueryChange?.(q);
  };
  const shown: ComboOption[] = [
    ...(emptyLabel !== undefined && query.trim() === '' ? [{ value: '', label: emptyLabel }] : []),
    ...matches.slice(0, limit),
  ];
  const choose = (o: ComboOption | undefined) => {
    if (!o) return;
    onChange(o.value);
    setSearch('');
    setOpen(false);
  };
  const optionId = (i: number) => `${id}-opt-${i}`;

  return (
    <div className="combobox" data-testid={testId}>
      <label htmlFor={`${id}-input`}>{label}</label>
      <input
        id={`${id}-input`}
        ref={input}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && shown[active] ? optionId(active) : undefined}
        autoComplete="off"
        placeholder={chosen?.label ?? emptyLabel ?? t('hierarchy.pickerSearch')}
        value={open ? query : (chosen?.label ?? (value === '' ? (emptyLabel ?? '') : value))}
        onFocus={() => {
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => setOpen(false)}
        onChange={(e) => {
          setSearch(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(a + 1, shown.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter' && open) {
            e.preventDefault();
            choose(shown[active]);
            input.current?.blur();
          } else if (e.key === 'Escape') {
            setSearch('');
            setOpen(false);
          }
        }}
      />
      {open && (
        <div className="combobox-popup">
          <ul id={listId} role="listbox" aria-label={label}>
            {shown.map((o, i) => (
              <li
                key={`${o.value}-${i}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'active' : undefined}
                // mousedown, not click: the text box's blur would close the list first.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(o);
                  input.current?.blur();
                }}
              >
                {o.label}
              </li>
            ))}
          </ul>
          <p className="muted combobox-count" aria-live="polite">
            {count === 0
              ? t('hierarchy.pickerNone', { query })
              : count > Math.min(limit, matches.length)
                ? t('hierarchy.pickerMore', { shown: Math.min(limit, matches.length), count })
                : t('hierarchy.pickerCount', { count })}
          </p>
        </div>
      )}
    </div>
  );
}
