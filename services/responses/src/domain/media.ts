// Which file a file answer (image, signature) may name: one rule for every upload path (people, collection links,
// imports, edits). Pure: the caller reads the response's files (the media table) and passes them in.
import { ANSWER_MESSAGES, type ResponseData, type SchemaBody } from '@fieldwork/sampler';

/** A file asked for a response (a row of the media table, the fields the rule reads). */
export interface ResponseFile {
  object_key: string;
  kind: 'image' | 'signature';
  project_id: number;
  response_id: string;
  /** The collection link it was asked through (null: a person asked for it). */
  survey_id: number | null;
}

export interface MediaRuleContext {
  projectId: number;
  responseId: string;
  /** A collection link's respondent: only files asked through this link. */
  surveyId?: number;
}

/**
 * Whether `value` names a file asked for this very response of this project (pending or uploaded: a device saves
 * the response before its photos finish uploading), of the question's kind, and for a link's respondent through
 * that link. A key is compared whole with the keys the media service made, so `..`, another response's or another
 * project's key, or a made-up one never passes: an export would otherwise sign a download link for it.
 */
export function namesOwnFile(
  value: unknown,
  kind: 'image' | 'signature',
  files: readonly ResponseFile[],
  c: MediaRuleContext,
): boolean {
  if (typeof value !== 'string' || value === '') return false;
  return files.some(
    (f) =>
      f.object_key === value &&
      f.kind === kind &&
      f.project_id === c.projectId &&
      f.response_id === c.responseId &&
      (c.surveyId === undefined || f.survey_id === c.surveyId),
  );
}

/** The file answers of `data` that changed since `before`, by field ("data.<repeat>.<itemId>"). */
export function changedFileAnswers(
  body: SchemaBody,
  data: ResponseData,
  before: ResponseData | undefined,
): { field: string; kind: 'image' | 'signature'; value: unknown }[] {
  const out: { field: string; kind: 'image' | 'signature'; value: unknown }[] = [];
  for (const [repeat, answers] of Object.entries(data)) {
    for (const [id, value] of Object.entries(answers)) {
      const type = body.entities.items[id]?.type;
      if (type !== 'image' && type !== 'signature') continue;
      // An answer kept as it was is not judged again: rows stored before this rule stay editable.
      if (value === before?.[repeat]?.[id]) continue;
      // A cleared answer names no file.
      if (value === null || value === undefined || value === '') continue;
      out.push({ field: `data.${repeat}.${id}`, kind: type, value });
    }
  }
  return out;
}

/** Field errors of the changed file answers that name no file of this response (empty: all fine). */
export function fileAnswerErrors(
  body: SchemaBody,
  data: ResponseData,
  before: ResponseData | undefined,
  files: readonly ResponseFile[],
  c: MediaRuleContext,
): Record<string, string[]> {
  const bad: Record<string, string[]> = {};
  for (const a of changedFileAnswers(body, data, before))
    if (!namesOwnFile(a.value, a.kind, files, c)) bad[a.field] = [ANSWER_MESSAGES.media];
  return bad;
}
