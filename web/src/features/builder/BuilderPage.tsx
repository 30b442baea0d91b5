// The form builder (spec 001 §2, §4): categories, questions and their editors, conditions, languages, save and
// discard, a background save while editing, and the preview. The schema and category are kept in the address.
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useOutletContext, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  addBlock,
  addItem,
  deleteBlock,
  deleteItem,
  duplicateItem,
  formProblems,
  itemValid,
  moveEntity,
  text,
  updateBlock,
  ITEM_TYPES,
  type ItemType,
  type SchemaBody,
} from '@fieldwork/sampler';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { notify } from '../../components/noticesSlice';
import { failure } from '../errors/failures';
import type { Project } from '../projects/types';
import { useSaveSchemaMutation, useSchemaQuery, useXlsFormMutation } from './builderApi';
import {
  backgroundSaved,
  discarded,
  edited,
  languageChosen,
  loaded,
  saved,
  savingFailed,
  savingStarted,
} from './builderSlice';
import { ConditionEditor } from './ConditionEditor';
import { LanguageManager } from './LanguageManager';
import { Preview } from './Preview';
import { problemsAt, serverProblems } from './problems';
import { QuestionEditor } from './QuestionEditor';
import { VersionList } from './VersionList';

const BACKGROUND_SAVE_MS = 60_000;
const NEW_TYPES = ITEM_TYPES.filter((t) => t !== 'empty');

export function BuilderPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const project = useOutletContext<Project>();
  const params = useParams();
  const schemaId = Number(params.schema ?? project.project_hierarchy[0]?.schema_id ?? 0);
  const blockParam = params.block ? Number(params.block) : undefined;
  const { data: doc, error: loadError } = useSchemaQuery(schemaId, { skip: !schemaId });
  // A lower level's conditions may test the level above's answers (an XLSForm repeat's): that form names them.
  const level = project.project_hierarchy.find((l) => l.schema_id === schemaId)?.level ?? 0;
  const parentId = project.project_hierarchy.find((l) => l.level === level - 1)?.schema_id ?? 0;
  const { data: parentDoc } = useSchemaQuery(parentId, { skip: !parentId });
  const state = useAppSelector((s) => s.builder);
  const [save, saveState] = useSaveSchemaMutation();
  const [fetchXlsForm, xlsFormState] = useXlsFormMutation();
  const [itemId, setItemId] = useState<number | null>(null);
  const [newType, setNewType] = useState<ItemType>('open');
  const [panel, setPanel] = useState<'edit' | 'preview' | 'languages' | 'versions'>('edit');

  useEffect(() => {
    if (doc && doc.id !== state.schemaId) dispatch(loaded(doc));
  }, [doc, state.schemaId, dispatch]);

  const body = state.schemaId === schemaId ? state.body : null;
  // The rules the API applies at save (formProblems): shown at each item, and save waits until there are none.
  const problems = useMemo(() => (body ? formProblems(body, schemaId) : []), [body, schemaId]);
  const refused = useMemo(() => serverProblems(saveState.error), [saveState.error]);
  const lang = state.lang;
  const blocks = useMemo(
    () => (body ? body.form.map((id) => body.entities.blocks[id]!).filter((b) => b && !b.deleted) : []),
    [body],
  );
  const blockId =
    blockParam !== undefined && body?.entities.blocks[blockParam] && !body.entities.blocks[blockParam]!.deleted
      ? blockParam
      : blocks[0]?.id;
  const block = blockId !== undefined ? body?.entities.blocks[blockId] : undefined;
  const item = itemId !== null ? body?.entities.items[itemId] : undefined;
  const edit = (next: SchemaBody) => dispatch(edited(next));
  const goBlock = (id: number | undefined) =>
    void navigate(`/project/${project.id}/builder/schema/${schemaId}${id !== undefined ? `/block/${id}` : ''}`, {
      replace: true,
    });

  const doSave = async (background = false) => {
    if (!body || !state.schemaId || problems.length > 0) return;
    if (!background) dispatch(savingStarted());
    try {
      const result = await save({ id: state.schemaId, body, revision: state.revision, name: state.name }).unwrap();
      if (background) dispatch(backgroundSaved(result));
      else {
        dispatch(saved(result));
        dispatch(notify(t('builder.saved')));
      }
    } catch {
      if (!background) dispatch(savingFailed());
    }
  };

  const downloadXlsForm = async () => {
    try {
      const file = await fetchXlsForm(schemaId).unwrap();
      const link = document.createElement('a');
      link.href = file.url;
      link.download = file.filename;
      link.click();
      // The browser has the file once the click is handled; the URL is released a little later.
      setTimeout(() => URL.revokeObjectURL(file.url), 60_000);
    } catch (err) {
      dispatch(notify(failure(err as Parameters<typeof failure>[0], t('builder.downloadXlsFormFailed'))));
    }
  };

  // A background save keeps the server copy close while the user edits; it leaves the flags alone.
  useEffect(() => {
    if (!state.dirty || !state.editable) return;
    const timer = setTimeout(() => void doSave(true), BACKGROUND_SAVE_MS);
    return () => clearTimeout(timer);
  });

  if (loadError) return <p className="banner error">{failure(loadError, 'Invalid Schema Id!')}</p>;
  if (!body) return <div className="loading">{t('app.loading')}</div>;

  const langs = Object.values(body.entities.languages)
    .filter((l) => !l.deleted)
    .sort((a, b) => a.sort - b.sort);
  const questions = block
    ? block.entities
        .filter((e) => e.type === 'item')
        .map((e) => body.entities.items[e.id]!)
        .filter((i) => i && !i.deleted)
    : [];
  const nested = block
    ? block.entities
        .filter((e) => e.type === 'block')
        .map((e) => body.entities.blocks[e.id]!)
        .filter((b) => b && !b.deleted)
    : [];

  return (
    <div className="builder" data-testid="builder">
      <div className="builder-bar">
        {project.project_hierarchy.length > 1 && (
          <select
            aria-label={t('builder.level')}
            value={schemaId}
            onChange={(e) => void navigate(`/project/${project.id}/builder/schema/${e.target.value}`)}
          >
            {project.project_hierarchy.map((l) => (
              <option key={l.schema_id} value={l.schema_id}>
                {l.name || t('common.levelN', { level: l.level + 1 })}
              </option>
            ))}
          </select>
        )}
        <select
          aria-label={t('builder.language')}
          data-testid="builder-language"
          value={lang}
          onChange={(e) => dispatch(languageChosen(e.target.value))}
        >
          {langs.map((l) => (
            <option key={l.iso_code_1} value={l.iso_code_1}>
              {l.name}
            </option>
          ))}
        </select>
        {(['edit', 'preview', 'languages', 'versions'] as const).map((p) => (
          <button
            key={p}
            type="button"
            className={panel === p ? 'link active' : 'link'}
            data-testid={`panel-${p}`}
            onClick={() => setPanel(p)}
          >
            {t(`builder.panels.${p}`)}
          </button>
        ))}
        <span className="spacer" />
        {!state.editable && (
          <span className="muted" data-testid="read-only">
            {t('builder.readOnly')}
          </span>
        )}
        <span data-testid="dirty-flag" className={state.dirty ? 'dirty' : 'clean'}>
          {state.dirty ? t('builder.unsaved') : t('builder.allSaved')}
        </span>
        <button
          type="button"
          data-testid="discard-form"
          disabled={!state.dirty || state.saving}
          onClick={() => dispatch(discarded())}
        >
          {t('builder.discard')}
        </button>
        <button
          type="button"
          data-testid="download-xlsform"
          disabled={xlsFormState.isLoading}
          title={state.dirty ? t('builder.downloadXlsFormSaved') : undefined}
          onClick={() => void downloadXlsForm()}
        >
          {t('builder.downloadXlsForm')}
        </button>
        {problems.length > 0 && (
          <span className="field-error" data-testid="form-problems">
            {t('builder.problems', { count: problems.length })}
          </span>
        )}
        <button
          type="button"
          data-testid="save-form"
          disabled={!state.dirty || state.saving || !state.editable || problems.length > 0}
          onClick={() => void doSave()}
        >
          {t('builder.save')}
        </button>
      </div>
      {saveState.error && (
        <p className="banner error" role="alert" data-testid="save-error">
          {failure(saveState.error, 'Cannot edit schema for this project!')}
        </p>
      )}
      {panel === 'preview' && <Preview body={body} lang={lang} schemaId={schemaId} />}
      {panel === 'languages' && <LanguageManager body={body} onChange={edit} />}
      {panel === 'versions' && <VersionList schemaId={schemaId} dirty={state.dirty} editable={state.editable} />}
      {panel === 'edit' && (
        <div className="builder-grid">
          <aside className="categories" data-testid="categories">
            <h3>{t('builder.categories')}</h3>
            <ul>
              {blocks.map((b) => (
                <li key={b.id} className={b.id === blockId ? 'on' : ''}>
                  <button
                    type="button"
                    className="link"
                    data-testid="category-item"
                    onClick={() => {
                      setItemId(null);
                      goBlock(b.id);
                    }}
                  >
                    {text(b.name, lang, body.primary_language) || t('builder.untitled')}
                  </button>
                </li>
              ))}
            </ul>
            <button
              type="button"
              data-testid="add-category"
              onClick={() => {
                const made = addBlock(body, { [lang]: `${t('builder.category')} ${blocks.length + 1}` });
                edit(made.body);
                goBlock(made.id);
              }}
            >
              {t('builder.addCategory')}
            </button>
          </aside>
          <section className="questions">
            {block && (
              <>
                <div className="row">
                  <label>
                    {t('builder.categoryName')}
                    <input
                      data-testid="category-name"
                      value={block.name[lang] ?? ''}
                      onChange={(e) =>
                        edit(updateBlock(body, block.id, { name: { ...block.name, [lang]: e.target.value } }))
                      }
                    />
                  </label>
                  <button
                    type="button"
                    className="link danger"
                    data-testid="delete-category"
                    onClick={() => {
                      const r = deleteBlock(body, block.id);
                      edit(r.body);
                      // Deleting a category selects the first remaining one.
                      goBlock(r.selected);
                    }}
                  >
                    {t('builder.deleteCategory')}
                  </button>
                </div>
                <ul className="question-list">
                  {questions.map((q, i) => (
                    <li key={q.id} className={q.id === itemId ? 'on' : ''}>
                      <button
                        type="button"
                        className="link"
                        data-testid="question-item"
                        onClick={() => setItemId(q.id)}
                      >
                        <span
                          className={
                            itemValid(q, lang, body) && problemsAt(problems, [], 'item', q.id).length === 0
                              ? ''
                              : 'invalid'
                          }
                        >
                          {text(q.name, lang, body.primary_language) || t('builder.untitled')}
                        </span>{' '}
                        <small className="muted">{t(`builder.types.${q.type}`)}</small>
                      </button>
                      <span className="actions">
                        <button
                          type="button"
                          className="link"
                          aria-label={t('builder.up')}
                          disabled={i === 0}
                          onClick={() =>
                            edit(
                              moveEntity(
                                body,
                                { type: 'item', id: q.id },
                                block.id,
                                block.entities.findIndex((e) => e.type === 'item' && e.id === q.id) - 1,
                              ),
                            )
                          }
                        >
                          ↑
                        </button>
                        <button
                          type="button"
                          className="link"
                          aria-label={t('builder.duplicate')}
                          data-testid="duplicate-question"
                          onClick={() => edit(duplicateItem(body, q.id).body)}
                        >
                          ⎘
                        </button>
                        <button
                          type="button"
                          className="link"
                          aria-label={t('builder.delete')}
                          onClick={() => {
                            edit(deleteItem(body, q.id));
                            setItemId(null);
                          }}
                        >
                          ×
                        </button>
                      </span>
                    </li>
                  ))}
                </ul>
                {nested.length > 0 && (
                  <p className="muted">
                    {t('builder.conditionalCategories')}:{' '}
                    {nested.map((b) => (
                      <button key={b.id} type="button" className="link" onClick={() => goBlock(b.id)}>
                        {text(b.name, lang) || `#${b.id}`}
                      </button>
                    ))}
                  </p>
                )}
                <div className="row">
                  <select
                    aria-label={t('builder.type')}
                    data-testid="add-question-type"
                    value={newType}
                    onChange={(e) => setNewType(e.target.value as ItemType)}
                  >
                    {NEW_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {t(`builder.types.${type}`)}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    data-testid="add-question"
                    onClick={() => {
                      const made = addItem(body, block.id, newType, lang, '', itemId ?? undefined);
                      edit(made.body);
                      setItemId(made.id);
                    }}
                  >
                    {t('builder.addQuestion')}
                  </button>
                </div>
                {problemsAt(problems, refused, 'block', block.id).map((p) => (
                  <p key={`${p.field}:${p.message}`} className="field-error" data-testid="category-problem">
                    {p.message}
                  </p>
                ))}
                <ConditionEditor
                  key={block.id}
                  body={body}
                  block={block}
                  lang={lang}
                  onChange={edit}
                  schemaId={schemaId}
                  others={parentDoc ? { [parentDoc.id]: parentDoc } : {}}
                />
              </>
            )}
          </section>
          <section className="editor-pane">
            {item && !item.deleted ? (
              <QuestionEditor
                body={body}
                item={item}
                lang={lang}
                hasResponses={project.total_responses > 0}
                problems={problemsAt(problems, refused, 'item', item.id)}
                onChange={edit}
              />
            ) : (
              <p className="muted">{t('builder.pickQuestion')}</p>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
