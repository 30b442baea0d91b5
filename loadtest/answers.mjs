// The load form (form.json) and the answers of response number i, for the Node runners (run.mjs, soak.mjs); the
// k6 scripts have the same function in lib/fieldwork.js (k6 modules cannot be imported by Node).
import { readFileSync } from 'node:fs';

export const FORM = JSON.parse(readFileSync(new URL('./form.json', import.meta.url), 'utf8'));

export function answers(i) {
  const data = {};
  FORM.items.number.forEach((id, k) => (data[id] = (i * 7 + k * 13) % 100));
  FORM.items.choice.forEach((id, k) => (data[id] = [FORM.choices[id][(i + k) % 4]]));
  FORM.items.open.forEach((id, k) => (data[id] = `answer ${i % 97} to ${k}`));
  FORM.items.date.forEach((id) => (data[id] = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`));
  return { 0: data };
}
