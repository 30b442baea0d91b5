#!/usr/bin/env node
// Gateway benchmark: authenticated GET /api/accounts/user/{id}/ (JWT check + one gRPC hop to the auth service +
// one PostgreSQL read) and a project-scoped read, GET /api/project/{id}/response/single/{responseId}/ (the caller's
// access to the project decided, then one response read), against a plain Fastify route, each in its own process,
// loaded by autocannon from this one.
//   full:  pnpm bench:gateway            (records the figures in docs/benchmarks.md)
//   smoke: node bench/gateway/run.mjs --smoke
//   where the time goes: node bench/gateway/run.mjs --profile  (CPU profiles of the stack during the project read;
//   records nothing)
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startTestStack, freePort } from '@fieldwork/launcher';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { profiling, report, startProfiles, stopProfiles } from '../profile/profile.mjs';

const smoke = process.argv.includes('--smoke');
const profile = process.argv.includes('--profile') ? profiling() : undefined;
const duration = smoke ? 2 : Number(process.env.BENCH_DURATION_S ?? 15);
const connections = smoke ? 10 : Number(process.env.BENCH_CONNECTIONS ?? 50);
const root = fileURLToPath(new URL('../..', import.meta.url));

function load(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration, headers, warmup: smoke ? undefined : { connections, duration: 3 } },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
  });
}

function figures(r) {
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    total: r.requests.total,
  };
}

const plainPort = await freePort();
const plain = spawn(
  process.execPath,
  [fileURLToPath(new URL('plain-server.mjs', import.meta.url)), String(plainPort)],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise((resolve) => plain.stdout.once('data', resolve));

const stack = await startTestStack(profile ? { extraEnv: profile.env } : {});
let exitCode = 0;
try {
  const login = await fetch(`${stack.baseUrl}/api/api-token-auth/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: stack.demo.username, password: stack.demo.password }),
  }).then((r) => r.json());
  const userUrl = `${stack.baseUrl}/api/accounts/user/${login.user.id}/`;
  const check = await fetch(userUrl, { headers: { authorization: `JWT ${login.access}` } });
  if (check.status !== 200) throw new Error(`authenticated GET answered ${check.status}`);

  // A project with a one-question form and one response, read back by id.
  const auth = { authorization: `JWT ${login.access}`, 'content-type': 'application/json' };
  const call = async (method, path, body) => {
    const r = await fetch(`${stack.baseUrl}/api/${path}`, {
      method,
      headers: auth,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json().catch(() => undefined);
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  const project = await call('POST', 'project/', {
    name: 'Bench',
    organization_pk: login.user.current_organization ?? stack.demo.organizationId,
    geotag: { type: 'Point', coordinates: [0, 0] },
  });
  const schema = project.sampler_schemas[0].id;
  const block = addBlock(newSchemaBody('S'), { en: 'Block' });
  const item = addItem(block.body, block.id, 'number', 'en', 'Adults');
  await call('PUT', `samplerschema/${schema}/`, { ...item.body, revision: 1 });
  const responseId = `${project.id}-${schema}-1-bench-${Date.now()}`;
  await call('POST', `project/${project.id}/response/`, {
    project: project.id,
    sampler_schema: schema,
    device_id: 'bench',
    response_id: responseId,
    site: project.sites[0].id,
    time_updated: new Date().toISOString(),
    data: { 0: { [item.id]: 3 } },
  });
  const responseUrl = `${stack.baseUrl}/api/project/${project.id}/response/single/${responseId}/`;
  const checkResponse = await fetch(responseUrl, { headers: { authorization: `JWT ${login.access}` } });
  if (checkResponse.status !== 200) throw new Error(`project-scoped GET answered ${checkResponse.status}`);

  if (profile) {
    await load(responseUrl, { authorization: `JWT ${login.access}` }); // warm
    startProfiles(stack);
    const profiled = figures(await load(responseUrl, { authorization: `JWT ${login.access}` }));
    await stopProfiles(stack);
    console.log(`project-scoped read while profiled: ${profiled.rps} req/s`);
    report(profile.dir);
    throw Object.assign(new Error('profiled, nothing recorded'), { profiled: true });
  }
  const gateway = figures(await load(userUrl, { authorization: `JWT ${login.access}` }));
  const scoped = figures(await load(responseUrl, { authorization: `JWT ${login.access}` }));
  const baseline = figures(await load(`http://127.0.0.1:${plainPort}/plain`, {}));
  const ratio = baseline.rps / gateway.rps;
  const scopedShare = scoped.rps / baseline.rps;
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
  const date = new Date().toISOString().slice(0, 10);
  const command = smoke
    ? 'node bench/gateway/run.mjs --smoke'
    : `BENCH_DURATION_S=${duration} BENCH_CONNECTIONS=${connections} pnpm bench:gateway`;

  const table = [
    '| route | req/s | p50 ms | p99 ms | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
    `| authenticated \`GET /api/accounts/user/{id}/\` (gateway → gRPC → auth → PostgreSQL) | ${gateway.rps} | ${gateway.p50} | ${gateway.p99} | ${gateway.errors} | ${gateway.non2xx} |`,
    `| project-scoped \`GET /api/project/{id}/response/single/{responseId}/\` (access decided, then the response read) | ${scoped.rps} | ${scoped.p50} | ${scoped.p99} | ${scoped.errors} | ${scoped.non2xx} |`,
    `| plain Fastify route, same JSON size | ${baseline.rps} | ${baseline.p50} | ${baseline.p99} | ${baseline.errors} | ${baseline.non2xx} |`,
  ].join('\n');
  console.log(
    `\n${table}\n\nplain / gateway throughput ratio: ${ratio.toFixed(1)}x; project-scoped read / plain: ${(scopedShare * 100).toFixed(1)}%\n${connections} connections, ${duration} s per route; ${machine}\nreproduce: ${command}\n`,
  );
  if (gateway.errors + gateway.non2xx + scoped.errors + scoped.non2xx > 0) {
    console.error('the gateway answered errors under load');
    exitCode = 1;
  }
  if (!smoke) {
    const file = `${root}docs/benchmarks.md`;
    const section = `## Gateway: authenticated user read vs plain Fastify\n\n${date}, ${machine}. ${connections} connections, ${duration} s per route after a 3 s warm-up; autocannon, the servers and the stack share the 2 cores.\n\n${table}\n\nThe plain route serves ${ratio.toFixed(1)} times the requests of the authenticated gRPC path; the project-scoped read serves ${(scopedShare * 100).toFixed(1)}% of the plain route's requests (issue 22 item 6 measures this ratio before and after authorizing once at the gateway).\n\nReproduce: \`${command}\`\n`;
    let doc = existsSync(file)
      ? readFileSync(file, 'utf8')
      : '# Benchmarks\n\nLatest figures of each benchmark under `bench/`. Full runs are made by hand; CI runs smoke runs only.\n\n';
    doc = /## Gateway: authenticated user read vs plain Fastify\n[\s\S]*?(?=\n## |$)/.test(doc)
      ? doc.replace(/## Gateway: authenticated user read vs plain Fastify\n[\s\S]*?(?=\n## |$)/, section)
      : `${doc.trimEnd()}\n\n${section}`;
    writeFileSync(file, doc);
    console.log(`recorded in docs/benchmarks.md`);
  }
} catch (err) {
  if (!err?.profiled) {
    console.error(err);
    exitCode = 1;
  }
} finally {
  await stack.stop();
  plain.kill('SIGTERM');
}
process.exit(exitCode);
