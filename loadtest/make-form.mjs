#!/usr/bin/env node
// Writes form.json: the sampler schema the load tests put on their project (4 numbers, 3 choices of 4, 2 texts, a
// date), and the ids the scenarios answer. Run again only when the sampler's schema format changes:
//   node loadtest/make-form.mjs
import { writeFileSync } from 'node:fs';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';

let b = addBlock(newSchemaBody('S'), { en: 'Household' });
const block = b.id;
let body = b.body;
const items = { number: [], choice: [], open: [], date: [] };
for (const [type, n] of [
  ['number', 4],
  ['choice', 3],
  ['open', 2],
  ['date', 1],
]) {
  for (let i = 0; i < n; i++) {
    const it = addItem(body, block, type, 'en', `${type} ${i + 1}`);
    body = it.body;
    items[type].push(it.id);
  }
}
const choices = {};
for (const id of items.choice) {
  choices[id] = [];
  for (const label of ['Alpha', 'Beta', 'Gamma', 'Delta']) {
    const c = addChoice(body, id, 'en', label);
    body = c.body;
    choices[id].push(c.id);
  }
}
writeFileSync(new URL('./form.json', import.meta.url), `${JSON.stringify({ body, items, choices }, null, 1)}\n`);
console.log('wrote loadtest/form.json');
