#!/usr/bin/env node
// Form-import isolation benchmark: a generated XLSForm workbook (default 5 MB: 600 questions labelled and hinted in 20
// languages with incompressible text) uploaded through the API and converted by POST create-form-from-upload on the
// whole stack, while a light forms call (GET samplerschema/{id}/ of another project) and /readyz run beside it.
// Reports the conversion's answer and time, the forms process's RSS before and at its peak (sampled every 50 ms
// from /proc), and the p50/p99/max of the neighbours.
//   full:  pnpm bench:form-isolation        (records the figures in docs/benchmarks.md)
//   smoke: node bench/form-isolation/run.mjs --smoke
// BENCH_FORM_ROWS, BENCH_FORM_LANGS, BENCH_FORM_CHARS shape the workbook; BENCH_FORM_TITLE names the section it
// records. (Conversion time by rows is bench/xlsform's, issue 23.)
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';
import ExcelJS from 'exceljs';
import { startTestStack } from '@fieldwork/launcher';
import { recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
const ROWS = smoke ? 50 : Number(process.env.BENCH_FORM_ROWS ?? 600);
const LANGS = smoke ? 2 : Number(process.env.BENCH_FORM_LANGS ?? 20);
const CHARS = smoke ? 20 : Number(process.env.BENCH_FORM_CHARS ?? 280);

/** An XLSForm of ROWS questions, each with a label and a hint in LANGS languages of CHARS random characters. */
async function workbook() {
  const wb = new ExcelJS.Workbook();
  const codes = Array.from(
    { length: LANGS },
    (_, i) => `l${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
  );
  const survey = wb.addWorksheet('survey');
  survey.addRow(['type', 'name', ...codes.flatMap((c) => [`label::Lang ${c} (${c})`, `hint::Lang ${c} (${c})`])]);
  const text = () =>
    randomBytes(Math.ceil((CHARS * 3) / 4))
      .toString('base64')
      .slice(0, CHARS);
  for (let i = 0; i < ROWS; i++)
    survey.addRow([i % 3 === 0 ? 'integer' : 'text', `q${i}`, ...codes.flatMap(() => [text(), text()])]);
  wb.addWorksheet('choices').addRow(['list_name', 'name', 'label']);
  wb.addWorksheet('settings').addRows([['form_title'], ['Bench form']]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** RSS of a process, in MB (Linux /proc). */
function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

const stack = await startTestStack();
let exitCode = 0;
try {
  const api = async (method, path, options = {}) => {
    const res = await fetch(`${stack.baseUrl}/api/${path}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `JWT ${options.token}` } : {}),
        ...(options.form ? {} : { 'content-type': 'application/json' }),
      },
      body: options.form ?? (options.body ? JSON.stringify(options.body) : undefined),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  const { access: token, organization } = (
    await api('POST', 'api-token-auth/', { body: { username: stack.demo.username, password: stack.demo.password } })
  ).body;
  const newProject = async (name) =>
    (
      await api('POST', 'project/', {
        token,
        body: { name, organization_pk: organization.id, geotag: { type: 'Point', coordinates: [0, 0] } },
      })
    ).body;
  const target = await newProject('XLSForm bench');
  const neighbour = await newProject('XLSForm neighbour');
  const content = await workbook();
  const form = new FormData();
  form.append('file', new Blob([content]), 'bench.xlsx');
  const file = (await api('POST', `project/${target.id}/upload/`, { token, form })).body;
  const formsPid = stack.stack.children.get('forms')?.process.pid;
  const idle = formsPid ? rssMb(formsPid) : 0;

  let converting = true;
  let peak = idle;
  const sampler = (async () => {
    while (converting) {
      if (formsPid) peak = Math.max(peak, rssMb(formsPid));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const neighbours = { get: [], ready: [], failed: 0 };
  const probe = (async () => {
    while (converting) {
      const t0 = performance.now();
      const [g, r] = await Promise.all([
        api('GET', `samplerschema/${neighbour.sampler_schemas[0].id}/`, { token }).then(
          (x) => (neighbours.get.push(performance.now() - t0), x.status),
        ),
        fetch(`${stack.baseUrl}/readyz`).then((x) => (neighbours.ready.push(performance.now() - t0), x.status)),
      ]);
      if (g !== 200 || r !== 200) neighbours.failed++;
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  const t0 = performance.now();
  const converted = await api('POST', `project/${target.id}/create-form-from-upload/`, {
    token,
    body: { file_identifier: file.file_id },
  });
  const seconds = (performance.now() - t0) / 1000;
  // The worker's memory is returned after the answer: sample a little longer to see where RSS settles.
  await new Promise((r) => setTimeout(r, 2000));
  converting = false;
  await Promise.all([sampler, probe]);
  const after = formsPid ? rssMb(formsPid) : 0;

  const outcome =
    converted.status === 200
      ? `200, ${converted.body.questions} questions`
      : `${converted.status}: ${JSON.stringify(converted.body).slice(0, 120)}`;
  const ms = (x) => `${Math.round(x)}`;
  const table = [
    '| workbook | MB | answer | seconds | forms RSS idle / peak / 2 s after (MB) | GET form p50 / p99 / max ms | readyz p50 / p99 / max ms | neighbour failures |',
    '|---|---:|---|---:|---|---|---|---:|',
    `| ${ROWS} rows × ${LANGS} languages (label + hint, ${CHARS} chars) | ${(content.length / 2 ** 20).toFixed(1)} | ${outcome} | ${seconds.toFixed(1)} | ${idle} / ${peak} / ${after} | ${ms(quantile(neighbours.get, 0.5))} / ${ms(quantile(neighbours.get, 0.99))} / ${ms(Math.max(0, ...neighbours.get))} | ${ms(quantile(neighbours.ready, 0.5))} / ${ms(quantile(neighbours.ready, 0.99))} / ${ms(Math.max(0, ...neighbours.ready))} | ${neighbours.failed} of ${neighbours.get.length} |`,
  ].join('\n');
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
  const command = smoke
    ? 'node bench/form-isolation/run.mjs --smoke'
    : `BENCH_FORM_ROWS=${ROWS} BENCH_FORM_LANGS=${LANGS} BENCH_FORM_CHARS=${CHARS} pnpm bench:form-isolation`;
  console.log(`\n${table}\n\n${machine}\nreproduce: ${command}\n`);
  if (smoke && converted.status !== 200) throw new Error(`conversion answered ${outcome}`);
  if (!smoke) {
    const title = `## Form import isolation: ${process.env.BENCH_FORM_TITLE ?? 'a large workbook beside light calls'}`;
    const date = new Date().toISOString().slice(0, 10);
    const section = `${title}\n\n${date}, ${machine}. One generated XLSForm uploaded through the API and converted by \`POST project/{id}/create-form-from-upload/\` on the whole stack started by the launcher, while \`GET samplerschema/{id}/\` of another project and \`/readyz\` were called every 100 ms beside it. RSS of the forms process from /proc every 50 ms.\n\n${table}\n\nReproduce: \`${command}\`\n`;
    recordSection(title, section);
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await stack.stop();
}
process.exit(exitCode);
