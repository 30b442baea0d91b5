import { afterEach, describe, expect, it } from 'vitest';
import {
  ANSWER_MESSAGES,
  CALCULATION_MESSAGES,
  CONCATENATION_MESSAGES,
  RECORD_MESSAGES,
  REQUIRED_MESSAGE,
} from '@fieldwork/sampler';
import { setLanguage } from './index';
import { en } from './en';
import { translateKnown } from './known';

afterEach(async () => {
  await setLanguage('en');
});

describe('translateKnown (the spec’s English messages in the user’s language)', () => {
  it('leaves English and unknown texts as they are', () => {
    expect(translateKnown('Project could not be saved!')).toBe('Project could not be saved!');
    expect(translateKnown('Invalid Organization Id!')).toBe('Invalid Organization Id!');
    expect(translateKnown('')).toBe('');
  });
  it('translates fixed texts and texts with a bound or a question name', async () => {
    await setLanguage('fr');
    expect(translateKnown('Project could not be saved!')).toBe('Le projet n’a pas pu être enregistré !');
    expect(translateKnown('Ensure this value is less than or equal to 100.')).toBe(
      'Assurez-vous que cette valeur est inférieure ou égale à 100.',
    );
    expect(translateKnown('Answer "Région (nord)" first: its answer decides the choices offered here.')).toBe(
      'Répondez d’abord à « Région (nord) » : sa réponse décide des choix proposés ici.',
    );
    await setLanguage('es');
    expect(translateKnown('This question is required.')).toBe('Esta pregunta es obligatoria.');
    await setLanguage('ar');
    expect(translateKnown('Choose at least 2 answers.')).toBe('اختر 2 إجابات على الأقل.');
  });
  it('knows the answer and record messages of the sampler as they are written there', async () => {
    // The sampler owns these texts (shared with the server); en.known must match them to the letter.
    const sampler = [
      ANSWER_MESSAGES.number,
      ANSWER_MESSAGES.min(5),
      ANSWER_MESSAGES.maxLength(12),
      ANSWER_MESSAGES.minChoices(2),
      ANSWER_MESSAGES.filterUnanswered('Region'),
      ANSWER_MESSAGES.notOffered('Region'),
      ANSWER_MESSAGES.date,
      REQUIRED_MESSAGE,
      ...Object.values(RECORD_MESSAGES),
      CALCULATION_MESSAGES.answer('Monthly income', 'Income per member'),
      CALCULATION_MESSAGES.division,
      CONCATENATION_MESSAGES.answer('Name'),
    ];
    await setLanguage('pt');
    for (const text of sampler) expect(translateKnown(text), text).not.toBe(text);
    expect(Object.values(en.known)).toContain(REQUIRED_MESSAGE);
  });
});
