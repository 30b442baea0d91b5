// The load form (form.json) and the answers of response number i, for the Node runners (run.mjs, soak.mjs); the
// function itself is lib/answers.js, which the k6 scripts load too.
import { readFileSync } from 'node:fs';
import { answersTo } from './lib/answers.js';

export const FORM = JSON.parse(readFileSync(new URL('./form.json', import.meta.url), 'utf8'));

export function answers(i) {
  return answersTo(FORM, i);
}
