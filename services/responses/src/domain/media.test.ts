import { describe, expect, it } from 'vitest';
import { addBlock, addItem, ANSWER_MESSAGES, newSchemaBody } from '@fieldwork/sampler';
import { fileAnswerErrors, namesOwnFile, type ResponseFile } from './media.js';

const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
const photo = addItem(b.body, b.id, 'image', 'en', 'Photo');
const sign = addItem(photo.body, b.id, 'signature', 'en', 'Signature');
const body = sign.body;

const own: ResponseFile = {
  object_key: 'images/7/7-2-r1/0f0f0f0f-0000-0000-0000-000000000000-door.png',
  kind: 'image',
  project_id: 7,
  response_id: '7-2-r1',
  survey_id: null,
};
const other: ResponseFile = { ...own, object_key: 'images/7/7-2-r2/1-door.png', response_id: '7-2-r2' };
const c = { projectId: 7, responseId: '7-2-r1' };

describe('file answers name only files asked for their own response', () => {
  it('accepts the response own file, pending or uploaded, of the question kind', () => {
    expect(namesOwnFile(own.object_key, 'image', [own], c)).toBe(true);
    expect(namesOwnFile(own.object_key, 'signature', [own], c)).toBe(false);
  });
  it("refuses traversal, made-up keys, another response's and another project's files", () => {
    for (const v of ['images/7/../125/x.png', 'images/7/7-2-r1/x.png', other.object_key, '', 5, null])
      expect(namesOwnFile(v, 'image', [own, other], c), String(v)).toBe(false);
    // A file row that says it is this response's but of another project (a forged or moved row) does not count.
    expect(namesOwnFile(own.object_key, 'image', [{ ...own, project_id: 8 }], c)).toBe(false);
    expect(namesOwnFile(other.object_key, 'image', [other], c)).toBe(false);
  });
  it("holds a link's respondent to the files asked through that link", () => {
    const viaLink = { ...own, survey_id: 3 };
    expect(namesOwnFile(own.object_key, 'image', [viaLink], { ...c, surveyId: 3 })).toBe(true);
    expect(namesOwnFile(own.object_key, 'image', [viaLink], { ...c, surveyId: 4 })).toBe(false);
    expect(namesOwnFile(own.object_key, 'image', [own], { ...c, surveyId: 3 })).toBe(false);
  });
  it('judges changed answers only, by field, and ignores cleared ones', () => {
    const bad = 'images/7/../125/x.png';
    expect(fileAnswerErrors(body, { '0': { [photo.id]: bad } }, undefined, [own], c)).toEqual({
      [`data.0.${photo.id}`]: [ANSWER_MESSAGES.media],
    });
    // A value stored before the rule, unchanged by an edit, stays (the export notes it).
    expect(fileAnswerErrors(body, { '0': { [photo.id]: bad } }, { '0': { [photo.id]: bad } }, [], c)).toEqual({});
    expect(fileAnswerErrors(body, { '0': { [photo.id]: '' } }, undefined, [], c)).toEqual({});
    expect(
      fileAnswerErrors(
        body,
        { '1': { [sign.id]: own.object_key }, '0': { [photo.id]: own.object_key } },
        undefined,
        [own],
        c,
      ),
    ).toEqual({ [`data.1.${sign.id}`]: [ANSWER_MESSAGES.media] });
  });
});
