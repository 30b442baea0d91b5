// The whole export path of bench/export: the stack started by the launcher, N responses of the 20-question form put
// into the responses service's table with COPY (the system of record exports read; not published, so results do
// not ingest them), then a named CSV and an XLSX export each queued through the gateway (GET
// project/{id}/named_csv/?wait=0), run by the exports worker (pages from the responses service, written to the
// object store) and downloaded through the signed link. Rows per second from the request to the last byte of the
// download, and per CPU-second of the exports and responses processes (the figure a shared machine disturbs least);
// the exports process's RSS read from /proc at a quarter, half and all of the rows. Beside it, the read
// alone side by side: the pages the worker asks for (ExportPage over gRPC, keyset on id) and a PostgreSQL cursor.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestStack } from '@fieldwork/launcher';
import { responses as rpc } from '@fieldwork/proto';
import { createClient } from '@fieldwork/service-kit';
import postgres from 'postgres';
import { report, startProfiles, stopProfiles } from '../profile/profile.mjs';
import { ChdbEngine } from '../../services/results/dist/engine/chdb.engine.js';
import { migrateClickhouse } from '../../services/results/dist/engine/migrate.js';

const { Session } = createRequire(new URL('../../services/results/package.json', import.meta.url))('chdb');

/** RSS of a process, in bytes (Linux /proc). */
function rss(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** CPU seconds a process has used (user + system, Linux /proc; 100 ticks a second). */
function cpu(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Responses i..n of the bench form as COPY text lines (tab-separated, JSON data), `data(i)` the answers. */
function* copyLines(n, projectId, schemaId, data) {
  const t = (i) => new Date(1735689600000 + i * 1000).toISOString();
  for (let i = 0; i < n; i++) {
    const geotag = JSON.stringify({ type: 'Point', coordinates: [2 + (i % 100) / 100, 48 + (i % 50) / 100] });
    const json = JSON.stringify({ 0: data(i) }).replace(/\\/g, '\\\\');
    yield `bench-${projectId}-${i}\t${projectId}\t${schemaId}\t${1 + (i % 50)}\t\\N\tweb\t${i % 3 === 0 ? 't' : 'f'}\t${t(i)}\t${t(i)}\t${t(i)}\t${geotag}\t${json}\n`;
  }
}

/**
 * The read from ClickHouse (chDB, the results service's tables): the same N responses of the bench form made with
 * INSERT ... SELECT (answers as the results ingest writes them), then every response with its answers streamed
 * out of one grouped query (the answers table is sorted by question, not by response, so there is no cheap page by
 * response: one pass groups them all). `choiceIds[item]` are the choice ids of items 9-15.
 */
async function clickhouseRead(N, choiceIds) {
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-export-ch-'));
  try {
    const db = 'bench';
    const engine = new ChdbEngine(join(dir, 'chdb'));
    await migrateClickhouse(engine, db, { info() {}, warn() {}, error() {}, debug() {} });
    const common = `7 AS project_id, 1 AS schema_id, concat('r', toString(number)) AS response_id, 1 AS version, 0 AS removed,
      1 + number % 50 AS user_id, 1 + number % 20 AS site_id, 0 AS group_id, 0 AS team_id, number % 3 = 0 AS completed, 0 AS deleted,
      toDateTime64(1735689600 + number, 3, 'UTC') AS time_created, time_created AS time_updated, NULL AS time_completed, time_created AS time_uploaded`;
    const t0 = performance.now();
    for (let item = 1; item <= 20; item++) {
      const value =
        item <= 8
          ? `(number * 7 + ${item * 13}) % 1000 AS num, '' AS text, [] AS choices, NULL AS date`
          : item <= 15
            ? `NULL AS num, '' AS text, [arrayElement([${choiceIds[item].join(',')}], 1 + (number + ${item}) % 4)] AS choices, NULL AS date`
            : item <= 19
              ? `NULL AS num, concat('answer ', toString(number % 997), ' to question ${item}') AS text, [] AS choices, NULL AS date`
              : `NULL AS num, '' AS text, [] AS choices, makeDate32(2025, 1 + number % 12, 1 + number % 28) AS date`;
      await engine.exec(
        `INSERT INTO ${db}.answers (project_id, schema_id, response_id, version, removed, user_id, site_id, group_id, team_id, completed, deleted, time_created, time_updated, time_completed, time_uploaded, item_id, repeat, num, text, choices, date)
         SELECT ${common}, ${item} AS item_id, 0 AS repeat, ${value} FROM numbers(${N})`,
      );
    }
    const loadS = (performance.now() - t0) / 1000;
    await engine.close();
    const session = new Session(join(dir, 'chdb'));
    const t = performance.now();
    let rows = 0;
    const stream = session.queryStreamBind(
      `SELECT response_id, any(user_id), any(site_id), any(completed), toString(any(time_created)),
              groupArray(item_id), groupArray(num), groupArray(text), groupArray(choices), groupArray(toString(date))
       FROM ${db}.answers FINAL WHERE project_id = {p:UInt64} AND schema_id = {s:UInt64} AND removed = 0 AND deleted = 0
       GROUP BY response_id`,
      { p: 7, s: 1 },
      { format: 'JSONCompactEachRow' },
    );
    for await (const chunk of stream) rows += chunk.rows().length;
    const s = (performance.now() - t) / 1000;
    session.close();
    return {
      label: `ClickHouse (chDB, results tables; one grouped query streamed; loaded in ${loadS.toFixed(0)} s)`,
      rows,
      s,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the whole-path measurement on a fresh stack; answers rows of figures.
 * `body` is the form, `data(i)` the answers of response i keyed by item id.
 */
export async function runWholePath({ N, body, data, smoke, profile }) {
  const stack = await startTestStack(profile ? { extraEnv: profile.env } : {});
  try {
    const api = async (method, path, options = {}) => {
      const res = await fetch(`${stack.baseUrl}/api/${path}`, {
        method,
        headers: {
          ...(options.token ? { authorization: `JWT ${options.token}` } : {}),
          'content-type': 'application/json',
        },
        body: options.body ? JSON.stringify(options.body) : undefined,
      });
      const json = await res.json().catch(() => null);
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const { access: token, organization } = await api('POST', 'api-token-auth/', {
      body: { username: stack.demo.username, password: stack.demo.password },
    });
    const project = await api('POST', 'project/', {
      token,
      body: { name: 'Export bench', organization_pk: organization.id, geotag: { type: 'Point', coordinates: [0, 0] } },
    });
    const schemaId = project.sampler_schemas[0].id;
    await api('PUT', `samplerschema/${schemaId}/`, { token, body: { ...body, revision: 1 } });

    // COPY, in chunks of 50,000 lines (a writable stream with backpressure).
    const sql = postgres(stack.infra.databaseUrl, { max: 2, onnotice: () => undefined });
    const t0 = performance.now();
    const copy = await sql
      .unsafe(
        'copy responses.responses (response_id, project_id, schema_id, user_id, site_id, device_id, completed, time_created, time_updated, time_uploaded, geotag, data) from stdin',
      )
      .writable();
    let chunk = '';
    for (const line of copyLines(N, project.id, schemaId, data)) {
      chunk += line;
      if (chunk.length > 4 << 20) {
        if (!copy.write(chunk)) await new Promise((r) => copy.once('drain', r));
        chunk = '';
      }
    }
    await new Promise((resolve, reject) => copy.end(chunk, (err) => (err ? reject(err) : resolve())));
    await new Promise((r) => (copy.writableFinished ? r() : copy.once('finish', r)));
    await sql.unsafe('analyze responses.responses');
    const seedS = (performance.now() - t0) / 1000;

    // The read alone, side by side: the worker's pages (gRPC ExportPage) and a PostgreSQL cursor over the same rows.
    const reads = [];
    {
      const responses = createClient(rpc.ResponsesServiceClient, `127.0.0.1:${stack.ports.responses}`, {
        secret: stack.contextSecret,
      });
      const t = performance.now();
      let after = 0;
      let rows = 0;
      do {
        const page = await responses.exportPage(
          { project_id: project.id, schema_id: schemaId, after_id: after, limit: 5000, profile: '' },
          { requestId: 'bench' },
        );
        for (const r of page.rows) if (JSON.parse(r.data_json) === null) throw new Error('no data');
        rows += page.rows.length;
        after = page.last_id;
      } while (after !== 0);
      reads.push({
        label: 'ExportPage over gRPC (keyset pages of 5,000, data parsed)',
        rows,
        s: (performance.now() - t) / 1000,
      });
      responses.close();
    }
    {
      const t = performance.now();
      let rows = 0;
      await sql`select * from responses.responses where project_id = ${project.id} and schema_id = ${schemaId} and not deleted order by id`.cursor(
        5000,
        (page) => {
          rows += page.length;
        },
      );
      reads.push({
        label: "PostgreSQL cursor (batches of 5,000, in the worker's place)",
        rows,
        s: (performance.now() - t) / 1000,
      });
    }
    await sql.end();
    const choiceIds = Object.fromEntries(
      Array.from({ length: 7 }, (_, k) => [9 + k, body.entities.items[9 + k].options.choices]),
    );
    reads.push(await clickhouseRead(N, choiceIds));

    const exportsPid = stack.stack.children.get('exports')?.process.pid;
    const responsesPid = stack.stack.children.get('responses')?.process.pid;
    const cpuNow = () => cpu(exportsPid) + cpu(responsesPid);
    const runs = [];
    // Profiles over both exports (a process stops profiling once: its second start would not be seen).
    if (profile) startProfiles(stack);
    for (const [label, kind] of [
      ['named CSV', 'named_csv'],
      ['XLSX', 'xlsx_excel'],
    ]) {
      const t = performance.now();
      const cpu0 = cpuNow();
      const queued = await api('GET', `project/${project.id}/${kind}/?wait=0`, { token });
      let job = queued.job;
      const marks = [];
      let peak = 0;
      const quarter = [Math.floor(N / 4), Math.floor(N / 2), N];
      while (!['done', 'failed', 'cancelled'].includes(job.status)) {
        await new Promise((r) => setTimeout(r, smoke ? 50 : 200));
        job = await api('GET', `exports/jobs/${job.id}/`, { token });
        if (exportsPid) peak = Math.max(peak, rss(exportsPid));
        for (const q of quarter)
          if (job.rows_done >= q && !marks.some((m) => m.rows === q)) marks.push({ rows: q, rss: peak });
      }
      if (job.status !== 'done') throw new Error(`${kind} ${job.status}: ${job.error}`);
      const done = await api('GET', `exports/jobs/${job.id}/`, { token });
      const url = done.url ?? queued.url;
      const res = await fetch(url.startsWith('http') ? url : `${stack.baseUrl}${url}`);
      let bytes = 0;
      for await (const part of res.body) bytes += part.length;
      const s = (performance.now() - t) / 1000;
      for (const q of quarter) if (!marks.some((m) => m.rows === q)) marks.push({ rows: q, rss: peak });
      runs.push({ label, rows: job.rows_done, bytes, s, cpu: cpuNow() - cpu0, marks });
    }
    if (profile) {
      await stopProfiles(stack);
      report(profile.dir, ['exports', 'responses']);
    }
    return { seedS, reads, runs };
  } finally {
    await stack.stop();
  }
}
