// The form as a collector sees it: categories and questions that the conditions show, live calculations and
// concatenations, and the record validity message.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { calculate, concatenate, recordValidity, text, visibility, type Answers, type Block, type SchemaBody } from '@fieldwork/sampler';

export function Preview({ body, lang, schemaId }: { body: SchemaBody; lang: string; schemaId: number }) {
  const { t } = useTranslation();
  const [answers, setAnswers] = useState<Answers>({});
  const seen = useMemo(() => visibility(body, { schemaId, answers }), [body, answers, schemaId]);
  const validity = recordValidity(body, answers, seen.items);
  const set = (id: number, v: unknown) => setAnswers({ ...answers, [id]: v });

  const renderBlock = (b: Block, depth: number) => {
    if (b.deleted || seen.blocks.get(b.id) === 'skipped') return null;
    return (
      <fieldset key={b.id} className={`preview-block depth-${depth}`} data-testid="preview-block">
        {text(b.name, lang) && <legend>{text(b.name, lang, body.primary_language)}</legend>}
        {b.entities.map((ref) => {
          if (ref.type === 'block') {
            const child = body.entities.blocks[ref.id];
            return child ? renderBlock(child, depth + 1) : null;
          }
          const item = body.entities.items[ref.id];
          if (!item || item.deleted) return null;
          const label = text(item.name, lang, body.primary_language);
          const value = answers[String(item.id)];
          let input;
          switch (item.type) {
            case 'instruction':
              return (
                <p key={item.id} className="instruction">
                  {text(item.instruction, lang, body.primary_language)}
                </p>
              );
            case 'choice':
            case 'binary':
              input = (item.options.choices ?? []).map((c) => (
                <label key={c} className="check">
                  <input
                    type={item.options.multiselect ? 'checkbox' : 'radio'}
                    name={`q${item.id}`}
                    checked={Array.isArray(value) && value.includes(c)}
                    onChange={(e) => set(item.id, item.options.multiselect ? (e.target.checked ? [...((value as number[]) ?? []), c] : ((value as number[]) ?? []).filter((x) => x !== c)) : [c])}
                  />
                  {text(body.entities.choices[c]?.name, lang, body.primary_language)}
                </label>
              ));
              break;
            case 'number':
            case 'currency':
              input = <input type="number" value={value === undefined ? '' : String(value)} onChange={(e) => set(item.id, e.target.value === '' ? null : Number(e.target.value))} />;
              break;
            case 'date':
              input = <input type="date" value={String(value ?? '')} onChange={(e) => set(item.id, e.target.value)} />;
              break;
            case 'calculated': {
              const r = calculate(body, item.id, answers, lang);
              if (item.options.showInForm === false) return null;
              input = 'value' in r ? <output data-testid="preview-calculated">{r.value}</output> : <span className="muted">{r.error}</span>;
              break;
            }
            case 'concatenation': {
              const r = concatenate(body, item.options.concatenation ?? '', answers, lang);
              input = 'value' in r ? <output>{r.value}</output> : <span className="muted">{r.error}</span>;
              break;
            }
            case 'geotag':
            case 'image':
            case 'signature':
            case 'barcode':
            case 'reference_project':
              input = <span className="muted">{t(`builder.types.${item.type}`)}</span>;
              break;
            default:
              input = <input value={String(value ?? '')} onChange={(e) => set(item.id, e.target.value)} />;
          }
          return (
            <div key={item.id} className="preview-question" data-testid="preview-question">
              <div>
                {label}
                {item.options.isRequiredQuestion ? ' *' : ''}
              </div>
              {input}
            </div>
          );
        })}
      </fieldset>
    );
  };

  return (
    <div className="preview" data-testid="preview">
      {body.form.map((id) => {
        const b = body.entities.blocks[id];
        return b ? renderBlock(b, 0) : null;
      })}
      <p className={validity.valid ? 'ok' : 'field-error'} data-testid="preview-validity">
        {validity.valid ? t('builder.recordValid') : validity.message}
      </p>
    </div>
  );
}
