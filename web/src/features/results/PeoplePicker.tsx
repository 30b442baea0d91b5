// The collector and created-by pickers of the results and views filters: the people whose responses the caller sees,
// searched on the server as one types (a project may have thousands of collectors; GET project embeds only its first
// 100 users), a page at a time.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox } from '../../components/Combobox';
import { useDebounced } from '../../components/useDebounced';
import { useCollectorsQuery } from './resultsApi';

export function PeoplePicker({
  projectId,
  label,
  value,
  onChange,
  emptyLabel,
  testId,
}: {
  projectId: number;
  label: string;
  /** The chosen person's id, '' for none. */
  value: string;
  onChange: (value: string, name: string) => void;
  emptyLabel?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), 250);
  // The previous page stays up while the next one loads.
  const { data } = useCollectorsQuery({ projectId, q });
  const [chosen, setChosen] = useState('');
  // User 0 files the responses of collection links: no person, so no name.
  const options = (data?.results ?? []).map((p) => ({
    value: String(p.id),
    label: p.id === 0 ? t('results.anonymous') : p.name,
  }));
  return (
    <Combobox
      label={label}
      options={options}
      value={value}
      onQueryChange={setQuery}
      total={data?.count ?? 0}
      limit={options.length}
      {...(chosen ? { chosenLabel: chosen } : {})}
      {...(emptyLabel !== undefined ? { emptyLabel } : {})}
      {...(testId ? { testId } : {})}
      onChange={(v) => {
        const name = options.find((o) => o.value === v)?.label ?? '';
        setChosen(name);
        onChange(v, name);
      }}
    />
  );
}
