// The question editor: texts in the current language, code name, type change (a rebuild), flags, the options of
// each type, and a live formula editor that shows parse and dependency errors as you type.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogs } from '../../components/useDialogs';
import {
  addChoice,
  addFollowUp,
  BARCODE_FORMATS,
  changeItemType,
  choicesInUse,
  concatenationError,
  currencies,
  deleteChoice,
  formulaEditorState,
  formulaProblems,
  isSingleChoice,
  ITEM_TYPES,
  itemsInOrder,
  moveEntity,
  parentOf,
  refName,
  ruleProblems,
  updateChoice,
  updateItem,
  text,
  type FormProblem,
  type Item,
  type ItemType,
  type SchemaBody,
} from '@fieldwork/sampler';

const EDITABLE_TYPES = ITEM_TYPES.filter((t) => t !== 'empty');
/** Problems the editor already shows beside their own field, as you type. */
const SHOWN_AT_FIELD = new Set(['formula', 'concatenation', 'rules']);

export function QuestionEditor({
  body,
  item,
  lang,
  hasResponses,
  problems = [],
  onChange,
}: {
  body: SchemaBody;
  item: Item;
  lang: string;
  hasResponses: boolean;
  /** The form-rule problems of this item (its own check and a refused save's); formula, concatenation and answer rules show at their fields. */
  problems?: readonly FormProblem[];
  onChange: (next: SchemaBody) => void;
}) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const o = item.options;
  const set = (options: Item['options']) => onChange(updateItem(body, item.id, { options }));
  const formulaErrors = useMemo(() => (item.type === 'calculated' ? formulaProblems(body, item.id) : []), [body, item]);
  const concatError = item.type === 'concatenation' ? concatenationError(body, o.concatenation ?? '') : undefined;
  const money = useMemo(() => (item.type === 'currency' ? currencies() : []), [item.type]);
  const used = useMemo(() => choicesInUse(body), [body]);
  const rules = useMemo(() => ruleProblems(item), [item]);
  // Cascading choices: the questions that may filter this one's choices (earlier single choice questions).
  const filters = useMemo(() => {
    if (item.type !== 'choice') return [];
    const order = itemsInOrder(body).map((e) => e.item);
    const at = order.findIndex((i) => i.id === item.id);
    return order
      .slice(0, at < 0 ? order.length : at)
      .filter((i) => isSingleChoice(i) || i.id === item.options.choiceFilter?.itemId);
  }, [body, item]);
  const filter = item.type === 'choice' ? o.choiceFilter : undefined;
  const filterItem = filter ? body.entities.items[filter.itemId] : undefined;
  const filterChoices = (filterItem?.options.choices ?? []).filter(
    (c) => body.entities.choices[c] && !body.entities.choices[c]!.deleted,
  );
  /** Ties choice `id` to the filter question's choice `to`, or unties it. */
  const tie = (id: number, to: number, on: boolean) => {
    if (!filter) return;
    const now = filter.ties[String(id)] ?? [];
    set({
      choiceFilter: {
        ...filter,
        ties: { ...filter.ties, [id]: on ? [...now.filter((c) => c !== to), to] : now.filter((c) => c !== to) },
      },
    });
  };
  /** A count bound (characters, choices): on when a number is entered, off when emptied. */
  const countBound = (k: 'minLength' | 'maxLength' | 'minChoices' | 'maxChoices', label: string) => (
    <label key={k}>
      {label}
      <input
        data-testid={`${k}-value`}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={o[k]?.active ? String(o[k].value) : ''}
        onChange={(e) =>
          set({
            [k]:
              e.target.value === ''
                ? { active: false, value: 0 }
                : { active: true, value: Math.max(0, Math.trunc(Number(e.target.value))) },
          })
        }
      />
    </label>
  );

  return (
    <div className="question-editor card" data-testid="question-editor">
      {dialogs.element}
      {problems.some((p) => !SHOWN_AT_FIELD.has(p.field)) && (
        <ul className="field-error" data-testid="item-problems">
          {problems
            .filter((p) => !SHOWN_AT_FIELD.has(p.field))
            .map((p) => (
              <li key={`${p.field}:${p.message}`}>{p.message}</li>
            ))}
        </ul>
      )}
      <p className="muted">
        {t('builder.reference')}: <code data-testid="question-ref">{refName(body, item.id)}</code>
      </p>
      <label>
        {t('builder.questionText')}
        <input
          data-testid="question-name"
          value={item.name[lang] ?? ''}
          onChange={(e) => onChange(updateItem(body, item.id, { name: { ...item.name, [lang]: e.target.value } }))}
        />
      </label>
      <div className="row">
        <label>
          {t('builder.code')}
          <input
            data-testid="question-code"
            value={item.codeName}
            onChange={(e) => onChange(updateItem(body, item.id, { codeName: e.target.value }))}
          />
        </label>
        <label>
          {t('builder.type')}
          <select
            data-testid="type-select"
            value={item.type}
            onChange={(e) => onChange(changeItemType(body, item.id, e.target.value as ItemType, lang))}
          >
            {EDITABLE_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`builder.types.${type}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        {t('builder.moveTo')}
        <select
          data-testid="move-to-category"
          value={parentOf(body, { type: 'item', id: item.id })?.id ?? ''}
          onChange={(e) => {
            const target = body.entities.blocks[e.target.value];
            // Moving into a category with conditions clears the primary key (the sampler's moveEntity does it).
            if (target) onChange(moveEntity(body, { type: 'item', id: item.id }, target.id, target.entities.length));
          }}
        >
          {Object.values(body.entities.blocks)
            .filter((b) => !b.deleted)
            .map((b) => (
              <option key={b.id} value={b.id}>
                {text(b.name, lang) || `#${b.id}`}
                {b.conditions.length > 0 ? ' (?)' : ''}
              </option>
            ))}
        </select>
      </label>
      {item.type !== 'instruction' && (
        <div className="row flags">
          {(['isRequiredQuestion', 'isPrimaryKey', 'isLookupQuestion'] as const).map((flag) => (
            <label key={flag} className="check">
              <input
                type="checkbox"
                data-testid={`flag-${flag}`}
                checked={o[flag] === true}
                disabled={flag === 'isRequiredQuestion' && item.type === 'calculated'}
                onChange={(e) => set({ [flag]: e.target.checked })}
              />
              {t(`builder.flags.${flag}`)}
            </label>
          ))}
        </div>
      )}
      {item.type === 'instruction' && (
        <label>
          {t('builder.instructionText')}
          <textarea
            data-testid="instruction-text"
            value={item.instruction?.[lang] ?? ''}
            onChange={(e) =>
              onChange(updateItem(body, item.id, { instruction: { ...item.instruction, [lang]: e.target.value } }))
            }
          />
        </label>
      )}
      {(item.type === 'choice' || item.type === 'binary') && (
        <section data-testid="choices">
          <h3>{t('builder.choices')}</h3>
          {item.type === 'choice' && (
            <label className="check">
              <input
                type="checkbox"
                checked={o.multiselect === true}
                onChange={(e) => set({ multiselect: e.target.checked })}
              />
              {t('builder.multiselect')}
            </label>
          )}
          {item.type === 'choice' && (
            <label data-testid="choice-filter">
              {t('builder.choiceFilter')}
              <select
                data-testid="choice-filter-select"
                value={filter ? String(filter.itemId) : ''}
                onChange={(e) =>
                  set({
                    choiceFilter: e.target.value === '' ? undefined : { itemId: Number(e.target.value), ties: {} },
                  })
                }
              >
                <option value="">{t('builder.choiceFilterNone')}</option>
                {filters.map((i) => (
                  <option key={i.id} value={String(i.id)}>
                    {text(i.name, lang, body.primary_language) || i.codeName}
                  </option>
                ))}
              </select>
            </label>
          )}
          {(o.choices ?? []).map((id) => {
            const c = body.entities.choices[id];
            if (!c) return null;
            return (
              <div key={id} className="choice-entry">
                <div className="row choice">
                  <input
                    aria-label={t('builder.choice')}
                    data-testid="choice-input"
                    value={c.name[lang] ?? ''}
                    onChange={(e) => onChange(updateChoice(body, id, { name: { ...c.name, [lang]: e.target.value } }))}
                  />
                  <input
                    aria-label={t('builder.code')}
                    className="code"
                    value={c.codeName}
                    onChange={(e) => onChange(updateChoice(body, id, { codeName: e.target.value }))}
                  />
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      // Deleting a choice in a project with responses, or one used by a condition, asks first.
                      const ask =
                        hasResponses || used.has(id)
                          ? dialogs.confirm({ text: t('builder.confirmDeleteChoice'), danger: true })
                          : Promise.resolve(true);
                      void ask.then((yes) => {
                        if (yes) void onChange(deleteChoice(body, item.id, id));
                      });
                    }}
                  >
                    ×
                  </button>
                </div>
                {filter && (
                  // Cascading choices: the filter question's choices this choice is offered for.
                  <fieldset className="choice-ties" data-testid="choice-ties">
                    <legend>{t('builder.offeredFor')}</legend>
                    {filterChoices.map((to) => (
                      <label key={to} className="check">
                        <input
                          type="checkbox"
                          data-testid={`tie-${id}-${to}`}
                          checked={(filter.ties[String(id)] ?? []).includes(to)}
                          onChange={(e) => tie(id, to, e.target.checked)}
                        />
                        {text(body.entities.choices[to]!.name, lang, body.primary_language) ||
                          body.entities.choices[to]!.codeName}
                      </label>
                    ))}
                  </fieldset>
                )}
              </div>
            );
          })}
          <button
            type="button"
            data-testid="add-choice"
            onClick={() =>
              onChange(addChoice(body, item.id, lang, `${t('builder.choice')} ${(o.choices?.length ?? 0) + 1}`).body)
            }
          >
            {t('builder.addChoice')}
          </button>
          <button
            type="button"
            className="link"
            data-testid="add-follow-up"
            disabled={(o.choices ?? []).length === 0}
            onClick={() => {
              const first = o.choices![0]!;
              onChange(
                addFollowUp(
                  body,
                  item.id,
                  [{ itemId: item.id, schemaId: 0, condition: [first], finalized: true }],
                  'open',
                  lang,
                  t('builder.followUp'),
                ).body,
              );
            }}
          >
            {t('builder.addFollowUp')}
          </button>
        </section>
      )}
      {item.type === 'choice' && o.multiselect === true && (
        <section className="row" data-testid="choice-counts">
          {countBound('minChoices', t('builder.rules.minChoices'))}
          {countBound('maxChoices', t('builder.rules.maxChoices'))}
        </section>
      )}
      {(item.type === 'open' || item.type === 'barcode') && (
        <section data-testid="text-rules">
          <div className="row">
            {countBound('minLength', t('builder.rules.minLength'))}
            {countBound('maxLength', t('builder.rules.maxLength'))}
          </div>
          <label>
            {t('builder.rules.pattern')}
            <input
              data-testid="pattern-input"
              className="mono"
              value={o.pattern?.value ?? ''}
              placeholder="^[A-Z]{2}[0-9]{4}$"
              onChange={(e) =>
                set({
                  pattern: { active: e.target.value !== '', value: e.target.value, message: o.pattern?.message ?? {} },
                })
              }
            />
          </label>
          {o.pattern?.active && (
            <label>
              {t('builder.rules.patternMessage')}
              <input
                data-testid="pattern-message"
                value={o.pattern.message?.[lang] ?? ''}
                onChange={(e) =>
                  set({ pattern: { ...o.pattern!, message: { ...o.pattern!.message, [lang]: e.target.value } } })
                }
              />
            </label>
          )}
        </section>
      )}
      {rules.length > 0 && (
        <p className="field-error" data-testid="rule-error">
          {rules.join(' ')}
        </p>
      )}
      {(item.type === 'number' || item.type === 'currency' || item.type === 'date') && (
        <section className="row">
          {item.type !== 'date' && (
            <label className="check">
              <input
                type="checkbox"
                checked={o.allowDecimal === true}
                onChange={(e) => set({ allowDecimal: e.target.checked })}
              />
              {t('builder.decimals')}
            </label>
          )}
          {(['minimum', 'maximum'] as const).map((k) => (
            <label key={k}>
              <span className="check">
                <input
                  type="checkbox"
                  checked={o[k]?.active === true}
                  onChange={(e) =>
                    set({ [k]: { active: e.target.checked, value: o[k]?.value ?? (item.type === 'date' ? '' : 0) } })
                  }
                />
                {t(`builder.${k}`)}
              </span>
              <input
                data-testid={`${k}-value`}
                type={item.type === 'date' ? 'date' : 'number'}
                value={String(o[k]?.value ?? '')}
                onChange={(e) =>
                  set({
                    [k]: {
                      active: true,
                      value:
                        item.type === 'date' ? e.target.value : e.target.value === '' ? '' : Number(e.target.value),
                    },
                  })
                }
              />
            </label>
          ))}
          {item.type === 'currency' && (
            <label>
              {t('builder.currency')}
              <select value={o.currency ?? 'USD'} onChange={(e) => set({ currency: e.target.value })}>
                {money.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.code} {c.symbol} {c.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </section>
      )}
      {item.type === 'calculated' && (
        <section>
          <label>
            {t('builder.formula')}
            <input
              data-testid="formula-input"
              className="mono"
              value={o.formula ?? ''}
              onChange={(e) => set({ formula: e.target.value, editorState: formulaEditorState(body, e.target.value) })}
              placeholder="Q1_2*Q1_3"
            />
          </label>
          {formulaErrors.length > 0 ? (
            <p className="field-error" data-testid="formula-error">
              {formulaErrors.map((p, i) => (
                <span key={`${p.message}:${p.name ?? ''}`} data-testid="formula-problem">
                  {i > 0 && ' '}
                  <span data-testid="formula-message">{p.message}</span>
                  {p.name !== undefined && (
                    <>
                      {' '}
                      <code data-testid="formula-name">{p.name}</code>
                    </>
                  )}
                </span>
              ))}
            </p>
          ) : (
            <p className="ok" data-testid="formula-ok">
              {t('builder.formulaOk')}
            </p>
          )}
          <label className="check">
            <input
              type="checkbox"
              checked={o.allowDecimal === true}
              onChange={(e) => set({ allowDecimal: e.target.checked })}
            />
            {t('builder.decimals')}
          </label>
        </section>
      )}
      {item.type === 'concatenation' && (
        <section>
          <label>
            {t('builder.concatenation')}
            <input
              data-testid="concatenation-input"
              value={o.concatenation ?? ''}
              onChange={(e) => set({ concatenation: e.target.value })}
              placeholder="first_name, last_name"
            />
          </label>
          {concatError && <p className="field-error">{concatError}</p>}
        </section>
      )}
      {(item.type === 'calculated' || item.type === 'concatenation') && (
        <div className="row flags">
          {(['showInForm', 'showInResults'] as const).map((k) => (
            <label key={k} className="check">
              <input type="checkbox" checked={o[k] !== false} onChange={(e) => set({ [k]: e.target.checked })} />
              {t(`builder.${k}`)}
            </label>
          ))}
        </div>
      )}
      {item.type === 'barcode' && (
        <section>
          <label className="check">
            <input
              type="checkbox"
              checked={o.restrictType === true}
              onChange={(e) => set({ restrictType: e.target.checked })}
            />
            {t('builder.restrictCodes')}
          </label>
          {o.restrictType && (
            <div className="codes">
              {BARCODE_FORMATS.map((f) => (
                <label key={f} className="check">
                  <input
                    type="checkbox"
                    checked={(o.codeTypes ?? []).includes(f)}
                    onChange={(e) =>
                      set({
                        codeTypes: e.target.checked
                          ? [...(o.codeTypes ?? []), f]
                          : (o.codeTypes ?? []).filter((x) => x !== f),
                      })
                    }
                  />
                  {f}
                </label>
              ))}
            </div>
          )}
        </section>
      )}
      {item.type === 'signature' && (
        <section>
          <label className="check">
            <input
              type="checkbox"
              checked={o.agreement?.active === true}
              onChange={(e) =>
                set({ agreement: { active: e.target.checked, value: false, text: o.agreement?.text ?? {} } })
              }
            />
            {t('builder.agreement')}
          </label>
          {o.agreement?.active && (
            <textarea
              value={o.agreement.text[lang] ?? ''}
              onChange={(e) =>
                set({ agreement: { ...o.agreement!, text: { ...o.agreement!.text, [lang]: e.target.value } } })
              }
            />
          )}
        </section>
      )}
    </div>
  );
}
