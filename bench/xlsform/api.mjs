// The --api mode of bench/xlsform: each generated XLSForm uploaded (POST project/{id}/upload/) and converted
// (POST project/{id}/create-form-from-upload/) on a whole stack started by the launcher, one fresh project per size;
// during the largest, GET samplerschema/{id}/ of another project is called back to back (25 ms apart) and its
// p50/p99/max reported beside the same call on the idle stack.
import { cpus, totalmem, release } from 'node:os';
import { startTestStack } from '@fieldwork/launcher';
import { recordSection } from '../record.mjs';

const TITLE = '## XLSForm conversion through the API: 500 to 20,000 survey rows (issue 23)';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs the API benchmark; answers the process exit code. */
export async function runApi(workbook, sizes, smoke) {
  const stack = await startTestStack();
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
    const neighbour = await newProject('XLSForm neighbour');
    const light = async () => {
      const t0 = performance.now();
      const r = await api('GET', `samplerschema/${neighbour.sampler_schemas[0].id}/`, { token });
      return { t0, ms: performance.now() - t0, ok: r.status === 200 };
    };
    /** Upload + convert of one workbook into a fresh project: times and the answer. */
    // The workbook is made before anything is timed: making it blocks this process, the probe's client included.
    const prepare = async (n) => ({ ...(await workbook(n)), project: await newProject(`XLSForm ${n} rows`) });
    const importForm = async ({ buffer, rows, project }) => {
      const form = new FormData();
      form.append('file', new Blob([buffer], { type: XLSX }), `bench-${rows}.xlsx`);
      const t0 = performance.now();
      const up = await api('POST', `project/${project.id}/upload/`, { token, form });
      const t1 = performance.now();
      const converted =
        up.status === 201
          ? await api('POST', `project/${project.id}/create-form-from-upload/`, {
              token,
              body: { file_identifier: up.body.file_id },
            })
          : up;
      const t2 = performance.now();
      return {
        rows,
        kb: Math.round(buffer.length / 1024),
        upload: t1 - t0,
        convert: t2 - t1,
        total: t2 - t0,
        converted,
      };
    };

    // A small form first, so that the figures are not the first call's (connections, code loading).
    await importForm(await prepare(50));
    const idle = [];
    for (let i = 0; i < (smoke ? 20 : 200); i++) idle.push((await light()).ms);

    const lines = [];
    const beside = { ms: [], failed: 0, slowest: { t0: 0, ms: 0 }, start: 0, upload: 0, total: 0 };
    const failures = [];
    for (const n of sizes) {
      const largest = n === sizes[sizes.length - 1];
      const prepared = await prepare(n);
      let running = largest;
      beside.start = performance.now();
      const probe = (async () => {
        while (running) {
          const r = await light();
          beside.ms.push(r.ms);
          if (r.ms > beside.slowest.ms) beside.slowest = r;
          if (!r.ok) beside.failed++;
          await sleep(25);
        }
      })();
      const r = await importForm(prepared).finally(() => (running = false));
      await probe;
      if (largest) [beside.upload, beside.total] = [r.upload, r.total];
      const c = r.converted;
      const why = String(c.body?.non_field_errors?.[0] ?? c.body?.detail ?? JSON.stringify(c.body));
      const answer =
        c.status === 200
          ? `200, ${c.body.questions} questions`
          : `${c.status}: ${why.length > 110 ? `${why.slice(0, 110)}…` : why}`;
      if (c.status !== 200) failures.push(`${n} rows: ${answer}`);
      const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
      lines.push(
        `| ${r.rows.toLocaleString('en')} | ${r.kb} KB | ${s(r.upload)} | ${s(r.convert)} | **${s(r.total)}** | ${answer} |`,
      );
      console.log(lines[lines.length - 1]);
    }
    const ms = (x) => `${Math.round(x)}`;
    const table = [
      '| survey rows | file | upload | convert | end to end | answer |',
      '|---:|---:|---:|---:|---:|---|',
      ...lines,
      '',
      `| GET samplerschema/{id}/ of another project | calls | p50 ms | p99 ms | max ms | failed |`,
      '|---|---:|---:|---:|---:|---:|',
      `| idle stack | ${idle.length} | ${ms(quantile(idle, 0.5))} | ${ms(quantile(idle, 0.99))} | ${ms(Math.max(...idle))} | 0 |`,
      `| during the ${sizes[sizes.length - 1].toLocaleString('en')}-row import | ${beside.ms.length} | ${ms(quantile(beside.ms, 0.5))} | ${ms(quantile(beside.ms, 0.99))} | ${ms(Math.max(0, ...beside.ms))} | ${beside.failed} |`,
    ].join('\n');
    // When the slowest call started, in the largest import (upload, then conversion): where to look for the stall.
    const at = (x) => `${((x - beside.start) / 1000).toFixed(1)} s`;
    const slowest = `The slowest call beside the largest import took ${ms(beside.slowest.ms)} ms and started ${at(beside.slowest.t0)} after the import did (its upload took ${(beside.upload / 1000).toFixed(1)} s, the whole import ${(beside.total / 1000).toFixed(1)} s).`;
    console.log(slowest);
    const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
    const command = smoke
      ? 'node bench/xlsform/run.mjs --api --smoke'
      : 'pnpm run build && node bench/xlsform/run.mjs --api';
    console.log(`\n${table}\n\n${machine}\nreproduce: ${command}\n`);
    if (!smoke) {
      const date = new Date().toISOString().slice(0, 10);
      recordSection(
        TITLE,
        `${TITLE}\n\n${date}, ${machine}, on the whole stack started by the launcher with its defaults (\`FORMS_CONVERT_TIMEOUT_MS\` 10 s). The workbooks of "XLSForm conversion" above, each uploaded with \`POST project/{id}/upload/\` and converted by \`POST project/{id}/create-form-from-upload/\` into a fresh project, one after the other, after a 50-row warm-up; "end to end" is both calls as a client waits for them. During the largest, \`GET samplerschema/{id}/\` of another project was called back to back, 25 ms apart. Targets: 5,000 rows ≤ 2 s, 20,000 ≤ 8 s end to end.\n\n${table}\n\n${slowest}\n\nReproduce: \`${command}\`\n`,
      );
    }
    if (failures.length > 0) console.error(`conversions refused: ${failures.join('; ')}`);
    return smoke && failures.length > 0 ? 1 : 0;
  } catch (err) {
    console.error(err);
    return 1;
  } finally {
    await stack.stop();
  }
}
