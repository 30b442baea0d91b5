// The conditions of a category: tests on earlier answers (choices or a range) joined by NOT, AND, AND NOT, OR, OR NOT.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { itemsInOrder, OPERATORS, text, updateBlock, type Block, type ConditionEntry, type Operator, type SchemaBody } from '@fieldwork/sampler';

/**
 * `others`: the forms a test may name by schema id besides this one (`schemaId`): the level above's, whose answers a
 * lower level's condition may test.
 */
export function ConditionEditor({
  body,
  block,
  lang,
  onChange,
  schemaId = 0,
  others = {},
}: {
  body: SchemaBody;
  block: Block;
  lang: string;
  onChange: (next: SchemaBody) => void;
  schemaId?: number;
  others?: Record<number, Pick<SchemaBody, 'entities'>>;
}) {
  const { t } = useTranslation();
  const inBlock = new Set(itemsInOrder(body).filter((o) => o.blockId === block.id).map((o) => o.item.id));
  const candidates = itemsInOrder(body)
    .map((o) => o.item)
    .filter((i) => !inBlock.has(i.id) && ['choice', 'binary', 'number', 'currency', 'calculated'].includes(i.type));
  const [itemId, setItemId] = useState<number>(candidates[0]?.id ?? 0);
  const entries = block.conditions;
  const save = (next: ConditionEntry[]) => onChange(updateBlock(body, block.id, { conditions: next }));
  const target = body.entities.items[itemId];
  // Only what keeps the condition well placed (spec 001 §5) can be added: first a test or NOT, after a test an
  // operator, after an operator a test. A misplaced condition (an older form's) is a form problem shown above.
  const last = entries[entries.length - 1];
  const afterOperator = last !== undefined && 'operator' in last;
  const operatorAllowed = (op: Operator) => (last === undefined ? op === 'NOT' : !afterOperator);
  const testAllowed = last === undefined || afterOperator;

  return (
    <section className="card" data-testid="conditions">
      <h3>{t('builder.conditions')}</h3>
      <ol className="conditions">
        {entries.map((e, i) => (
          <li key={i} data-testid="condition-entry">
            {'operator' in e ? (
              <strong>{e.operator}</strong>
            ) : (
              <>
                {(() => {
                  const own = e.schemaId === 0 || e.schemaId === schemaId;
                  const from = own ? body.entities : others[e.schemaId]?.entities;
                  const name = text(from?.items[e.itemId]?.name, lang) || `#${e.itemId}`;
                  return own ? name : t('builder.otherFormQuestion', { name });
                })()}{' '}
                {Array.isArray(e.condition)
                  ? `∈ {${e.condition.map((c) => text((e.schemaId === 0 || e.schemaId === schemaId ? body.entities : others[e.schemaId]?.entities)?.choices[c]?.name, lang) || `#${c}`).join(', ')}}`
                  : Object.entries(e.condition).map(([k, v]) => `${({ $gt: '>', $gte: '≥', $lt: '<', $lte: '≤' } as Record<string, string>)[k]} ${v}`).join(' ')}
                <label className="check inline">
                  <input
                    type="checkbox"
                    data-testid="condition-finalized"
                    checked={e.finalized}
                    onChange={(ev) => save(entries.map((x, j) => (j === i && 'itemId' in x ? { ...x, finalized: ev.target.checked } : x)))}
                  />
                  {t('builder.finalized')}
                </label>
              </>
            )}
            <button type="button" className="link" onClick={() => save(entries.filter((_x, j) => j !== i))}>
              ×
            </button>
          </li>
        ))}
      </ol>
      <div className="row">
        <select aria-label={t('builder.operator')} data-testid="condition-operator" defaultValue="" disabled={afterOperator} onChange={(e) => {
          if (e.target.value) save([...entries, { operator: e.target.value as Operator }]);
          e.target.value = '';
        }}>
          <option value="">{t('builder.addOperator')}</option>
          {OPERATORS.map((op) => (
            <option key={op} value={op} disabled={!operatorAllowed(op)}>
              {op}
            </option>
          ))}
        </select>
      </div>
      {candidates.length === 0 ? (
        <p className="muted">{t('builder.noConditionQuestions')}</p>
      ) : (
        <ConditionTestForm
          key={itemId}
          body={body}
          lang={lang}
          itemId={itemId}
          candidates={candidates.map((c) => ({ id: c.id, name: text(c.name, lang) || c.codeName }))}
          onItem={setItemId}
          allowed={testAllowed}
          onAdd={(condition) => target && save([...entries, { itemId, schemaId: 0, condition, finalized: true }])}
        />
      )}
    </section>
  );
}

function ConditionTestForm({
  body,
  lang,
  itemId,
  candidates,
  onItem,
  allowed,
  onAdd,
}: {
  body: SchemaBody;
  lang: string;
  itemId: number;
  candidates: { id: number; name: string }[];
  onItem: (id: number) => void;
  /** False right after a test: two tests need an operator between them. */
  allowed: boolean;
  onAdd: (condition: number[] | Record<string, number>) => void;
}) {
  const { t } = useTranslation();
  const item = body.entities.items[itemId];
  const [chosen, setChosen] = useState<number[]>([]);
  const [op, setOp] = useState('$gte');
  const [value, setValue] = useState('');
  const choices = item?.options.choices ?? [];
  return (
    <div className="condition-form">
      <select aria-label={t('builder.question')} data-testid="condition-item" value={itemId} onChange={(e) => onItem(Number(e.target.value))}>
        {candidates.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      {item && (item.type === 'choice' || item.type === 'binary') ? (
        <div className="row">
          {choices.map((c) => (
            <label key={c} className="check">
              <input type="checkbox" data-testid="condition-choice" checked={chosen.includes(c)} onChange={(e) => setChosen(e.target.checked ? [...chosen, c] : chosen.filter((x) => x !== c))} />
              {text(body.entities.choices[c]?.name, lang)}
            </label>
          ))}
        </div>
      ) : (
        <div className="row">
          <select aria-label={t('builder.comparison')} value={op} onChange={(e) => setOp(e.target.value)}>
            <option value="$gt">&gt;</option>
            <option value="$gte">≥</option>
            <option value="$lt">&lt;</option>
            <option value="$lte">≤</option>
          </select>
          <input aria-label={t('builder.value')} type="number" value={value} onChange={(e) => setValue(e.target.value)} />
        </div>
      )}
      <button
        type="button"
        data-testid="condition-add"
        onClick={() => onAdd(item && (item.type === 'choice' || item.type === 'binary') ? chosen : { [op]: Number(value) })}
        disabled={!allowed || (item && (item.type === 'choice' || item.type === 'binary') ? chosen.length === 0 : value === '')}
      >
        {t('builder.addCondition')}
      </button>
    </div>
  );
}
