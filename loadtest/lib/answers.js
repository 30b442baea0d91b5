// The answers of response number i to the load form (form.json). Plain JavaScript with no imports, so that both the
// k6 scripts (lib/fieldwork.js) and the Node runners (answers.mjs) load this one function.
export function answersTo(form, i) {
  const data = {};
  form.items.number.forEach((id, k) => (data[id] = (i * 7 + k * 13) % 100));
  form.items.choice.forEach((id, k) => (data[id] = [form.choices[id][(i + k) % 4]]));
  form.items.open.forEach((id, k) => (data[id] = `answer ${i % 97} to ${k}`));
  form.items.date.forEach(
    (id) => (data[id] = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`),
  );
  return { 0: data };
}
