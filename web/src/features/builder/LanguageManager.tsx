// The languages of a form: add from the ISO list, rename, sort, delete (never the primary one).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addLanguage,
  deleteLanguage,
  languages,
  renameLanguage,
  sortLanguages,
  type SchemaBody,
} from '@fieldwork/sampler';
import { useLanguagesQuery } from './builderApi';

export function LanguageManager({ body, onChange }: { body: SchemaBody; onChange: (next: SchemaBody) => void }) {
  const { t } = useTranslation();
  const { data } = useLanguagesQuery(undefined);
  const [iso, setIso] = useState('');
  const list = languages(body);
  const move = (code: string, by: number) => {
    const order = list.map((l) => l.iso_code_1);
    const i = order.indexOf(code);
    const j = i + by;
    if (j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j]!, order[i]!];
    onChange(sortLanguages(body, order));
  };
  return (
    <section className="card" data-testid="languages">
      <h3>{t('builder.languages')}</h3>
      <ul>
        {list.map((l) => (
          <li key={l.iso_code_1} className="row">
            <input
              aria-label={l.iso_code_1}
              value={l.name}
              onChange={(e) => onChange(renameLanguage(body, l.iso_code_1, e.target.value))}
            />
            <code>{l.iso_code_1}</code>
            <button type="button" className="link" onClick={() => move(l.iso_code_1, -1)}>
              ↑
            </button>
            <button type="button" className="link" onClick={() => move(l.iso_code_1, 1)}>
              ↓
            </button>
            {l.iso_code_1 !== body.primary_language && (
              <button type="button" className="link" onClick={() => onChange(deleteLanguage(body, l.iso_code_1))}>
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      <div className="row">
        <select
          aria-label={t('builder.addLanguage')}
          data-testid="language-add-select"
          value={iso}
          onChange={(e) => setIso(e.target.value)}
        >
          <option value="">{t('builder.addLanguage')}</option>
          {data?.results
            .filter((l) => !list.some((x) => x.iso_code_1 === l.iso_code_1))
            .map((l) => (
              <option key={l.iso_code_1} value={l.iso_code_1}>
                {l.name}
              </option>
            ))}
        </select>
        <button
          type="button"
          data-testid="language-add"
          disabled={iso === ''}
          onClick={() => {
            const name = data?.results.find((l) => l.iso_code_1 === iso)?.name ?? iso;
            onChange(addLanguage(body, iso, name));
            setIso('');
          }}
        >
          {t('builder.add')}
        </button>
      </div>
    </section>
  );
}
