// The results filter bar (spec 001 §2 filter sets, §4): question, site, group, team, collector, created by and date
// range filters; each chip toggles (disable/enable) on click and is removed with its ×, except permanent ones.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Item } from '@fieldwork/sampler';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { dayRange } from './days';
import type { Project } from '../projects/types';
import { formatDay } from '../../i18n/format';
import { localized } from './figure';
import { resultsActions, type FilterType } from './resultsSlice';
import { PeoplePicker } from './PeoplePicker';

const TYPES: FilterType[] = ['question', 'site', 'group', 'team', 'collector', 'createdBy', 'date_range'];
const OPERATORS = ['==', '!=', '>', '>=', '<', '<='];

export function FilterBar({
  project,
  items,
  choiceName,
}: {
  project: Project;
  items: Item[];
  choiceName: (id: number) => string;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const chips = useAppSelector((s) => s.results.filters).filter((f) => !f.deleted);
  const [adding, setAdding] = useState<FilterType | ''>('');
  return (
    <div className="filter-bar" data-testid="filter-bar">
      {chips.map((f) => (
        <span key={f.key} className={f.disabled ? 'chip disabled' : 'chip'} data-testid="filter-chip">
          <button
            type="button"
            className="link"
            title={f.disabled ? t('results.filters.enable') : t('results.filters.disable')}
            aria-pressed={!f.disabled}
            onClick={() => dispatch(resultsActions.toggleFilter(f.key))}
          >
            {f.label}
          </button>
          {!f.permanent && (
            <button
              type="button"
              className="link"
              aria-label={t('results.filters.remove', { label: f.label })}
              onClick={() => dispatch(resultsActions.removeFilter(f.key))}
            >
              ×
            </button>
          )}
        </span>
      ))}
      <select
        aria-label={t('results.filters.add')}
        data-testid="add-filter"
        value={adding}
        onChange={(e) => setAdding(e.target.value as FilterType | '')}
      >
        <option value="">{t('results.filters.addPlaceholder')}</option>
        {TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`results.filters.types.${type}`)}
          </option>
        ))}
      </select>
      {adding && (
        <FilterForm
          type={adding}
          project={project}
          items={items}
          choiceName={choiceName}
          onDone={() => setAdding('')}
        />
      )}
    </div>
  );
}

function FilterForm({
  type,
  project,
  items,
  choiceName,
  onDone,
}: {
  type: FilterType;
  project: Project;
  items: Item[];
  choiceName: (id: number) => string;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language.slice(0, 2);
  const dispatch = useAppDispatch();
  const timeZone = useAppSelector((s) => s.results.timeZone);
  const [a, setA] = useState('');
  const [op, setOp] = useState('==');
  const [b, setB] = useState('');
  const key = `${type}:${Date.now()}`;
  const add = (chip: Parameters<typeof resultsActions.addFilter>[0]) => {
    dispatch(resultsActions.addFilter(chip));
    onDone();
  };
  const lists: Partial<Record<FilterType, { id: number; name: string }[]>> = {
    site: project.sites ?? [],
    group: project.groups ?? [],
    team: project.teams ?? [],
  };
  if (type === 'collector' || type === 'createdBy') {
    // People: searched on the server (a project may have thousands), not the project's first embedded users.
    return (
      <span className="filter-form">
        <PeoplePicker
          projectId={project.id}
          label={t('results.filters.value')}
          testId="filter-person"
          value={a}
          onChange={(v, name) => {
            setA(v);
            setB(name);
          }}
        />
        <button
          type="button"
          disabled={a === ''}
          data-testid="filter-apply"
          onClick={() =>
            add({ key, type, level: 0, id: Number(a), label: `${t(`results.filters.types.${type}`)}: ${b || a}` })
          }
        >
          {t('results.filters.apply')}
        </button>
      </span>
    );
  }
  const list = lists[type];
  if (list) {
    return (
      <span className="filter-form">
        <select
          aria-label={t('results.filters.value')}
          data-testid="filter-value"
          value={a}
          onChange={(e) => setA(e.target.value)}
        >
          <option value="">{t('results.filters.choose')}</option>
          {list.map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={a === ''}
          data-testid="filter-apply"
          onClick={() =>
            add({
              key,
              type,
              level: 0,
              id: Number(a),
              label: `${t(`results.filters.types.${type}`)}: ${list.find((x) => x.id === Number(a))?.name ?? a}`,
            })
          }
        >
          {t('results.filters.apply')}
        </button>
      </span>
    );
  }
  if (type === 'date_range') {
    // Whole days of the results' time zone: from the first millisecond of the first to the last millisecond of the
    // last (the end is inclusive; 23:59:59 left out the answers of the day's last second, and whole days are what
    // the results service answers from its aggregates).
    const range = dayRange(a, b, timeZone);
    return (
      <span className="filter-form">
        <input type="date" aria-label={t('results.filters.from')} value={a} onChange={(e) => setA(e.target.value)} />
        <input type="date" aria-label={t('results.filters.to')} value={b} onChange={(e) => setB(e.target.value)} />
        <button
          type="button"
          disabled={!a && !b}
          onClick={() =>
            add({
              key,
              type,
              level: 0,
              entity: 'response',
              dateType: 'time_created',
              start: range.start,
              end: range.end,
              label: t('results.filters.created', {
                from: a ? formatDay(`${a}T00:00:00`) : '…',
                to: b ? formatDay(`${b}T00:00:00`) : '…',
              }),
            })
          }
        >
          {t('results.filters.apply')}
        </button>
      </span>
    );
  }
  const question = items.find((x) => x.id === Number(a));
  const choices = question?.options.choices ?? [];
  const numeric = question && ['number', 'currency', 'calculated'].includes(question.type);
  const name = (i: Item) => localized(i.name, lang, i.codeName);
  const apply = () => {
    if (!question) return;
    if (choices.length > 0)
      add({
        key,
        type,
        level: 0,
        question: question.id,
        operator: 'in',
        value: [Number(b)],
        label: `${name(question).slice(0, 20)} = ${choiceName(Number(b))}`,
      });
    else if (numeric)
      add({
        key,
        type,
        level: 0,
        question: question.id,
        operator: op,
        value: Number(b),
        label: `${name(question).slice(0, 20)} ${op} ${b}`,
      });
    else
      add({
        key,
        type,
        level: 0,
        question: question.id,
        operator: 'contains',
        value: b,
        label: `${name(question).slice(0, 20)} ∋ ${b}`,
      });
  };
  return (
    <span className="filter-form">
      <select
        aria-label={t('results.filters.question')}
        data-testid="filter-question"
        value={a}
        onChange={(e) => (setA(e.target.value), setB(''))}
      >
        <option value="">{t('results.filters.questionPlaceholder')}</option>
        {items
          .filter((i) => !['image', 'signature', 'geotag', 'reference_project'].includes(i.type))
          .map((i) => (
            <option key={i.id} value={i.id}>
              {name(i).slice(0, 45)}
            </option>
          ))}
      </select>
      {numeric && (
        <select aria-label={t('results.filters.operator')} value={op} onChange={(e) => setOp(e.target.value)}>
          {OPERATORS.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      )}
      {question && choices.length > 0 ? (
        <ChoiceSelect ids={choices} value={b} onChange={setB} name={choiceName} />
      ) : (
        question && (
          <input
            aria-label={t('results.filters.textValue')}
            data-testid="filter-text"
            type={numeric ? 'number' : 'text'}
            value={b}
            onChange={(e) => setB(e.target.value)}
          />
        )
      )}
      <button type="button" disabled={!question || b === ''} data-testid="filter-apply" onClick={apply}>
        {t('results.filters.apply')}
      </button>
    </span>
  );
}

function ChoiceSelect({
  ids,
  value,
  onChange,
  name,
}: {
  ids: number[];
  value: string;
  onChange: (v: string) => void;
  name: (id: number) => string;
}) {
  const { t } = useTranslation();
  return (
    <select
      aria-label={t('results.filters.choice')}
      data-testid="filter-choice"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">{t('results.filters.choicePlaceholder')}</option>
      {ids.map((id) => (
        <option key={id} value={id}>
          {name(id)}
        </option>
      ))}
    </select>
  );
}
