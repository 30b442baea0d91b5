// The form as a collector sees it, with the collector's own renderer and check (packages/sampler, as the responses
// service runs it): conditions, live calculations and concatenations, each answer's problem at its question, and
// whether the record could be completed.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Answers, SchemaBody } from '@fieldwork/sampler';
import { FormRenderer } from '../collect/FormRenderer';
import { checkForm } from '../collect/validation';

export function Preview({ body, lang, schemaId }: { body: SchemaBody; lang: string; schemaId: number }) {
  const { t } = useTranslation();
  const [answers, setAnswers] = useState<Answers>({});
  const { check, problems } = useMemo(
    () => checkForm(body, schemaId, answers, { complete: true, lang }),
    [body, schemaId, answers, lang],
  );
  // Answers' problems show as they are entered; unanswered required questions count only in the verdict.
  const answered = useMemo(
    () => new Map([...problems.byItem].filter(([id]) => `0.${id}` in check.problems)),
    [problems, check],
  );
  const count = problems.byItem.size;
  const valid = count === 0 && problems.general.length === 0;
  return (
    <div className="preview" data-testid="preview">
      <FormRenderer
        body={body}
        lang={lang}
        answers={answers}
        onChange={(update) => setAnswers(update)}
        shown={check.shown}
        problems={answered}
        preview
        responseId="preview"
        projectId={0}
      />
      <p className={valid ? 'ok' : 'field-error'} data-testid="preview-validity">
        {valid
          ? t('builder.recordValid')
          : [...problems.general, count > 0 ? t('collect.needAttention', { count }) : ''].filter(Boolean).join(' ')}
      </p>
    </div>
  );
}
