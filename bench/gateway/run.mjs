#!/usr/bin/env node
// Gateway benchmark: authenticated GET /api/accounts/user/{id}/ (JWT check + one gRPC hop to the auth service +
// one PostgreSQL read) against a plain Fastify route, both in their own processes, loaded by autocannon from this one.
//   full:  pnpm bench:gateway            (records the figures in docs/benchmarks.md)
//   smoke: node bench/gateway/run.mjs --smoke
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startTestStack, freePort } from '@fieldwork/launcher';

const smoke = process.argv.includes('--smoke');
const duration = smoke ? 2 : Number(process.env.BENCH_DURATION_S ?? 15);
const connections = smoke ? 10 : Number(process.env.BENCH_CONNECTIONS ?? 50);
const root = fileURLToPath(new URL('../..', import.meta.url));

function load(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers, warmup: smoke ? undefined : { connections, duration: 3 } }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}

function figures(r) {
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, total: r.requests.total };
}

const plainPort = await freePort();
const plain = spawn(process.execPath, [fileURLToPath(new URL('plain-server.mjs', import.meta.url)), String(plainPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve) => plain.stdout.once('data', resolve));

const stack = await startTestStack();
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

  const gateway = figures(await load(userUrl, { authorization: `JWT ${login.access}` }));
  const baseline = figures(await load(`http://127.0.0.1:${plainPort}/plain`, {}));
  const ratio = baseline.rps / gateway.rps;
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
  const date = new Date().toISOString().slice(0, 10);
  const command = smoke ? 'node bench/gateway/run.mjs --smoke' : `BENCH_DURATION_S=${duration} BENCH_CONNECTIONS=${connections} pnpm bench:gateway`;

  const table = [
    '| route | req/s | p50 ms | p99 ms | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
    `| authenticated \`GET /api/accounts/user/{id}/\` (gateway → gRPC → auth → PostgreSQL) | ${gateway.rps} | ${gateway.p50} | ${gateway.p99} | ${gateway.errors} | ${gateway.non2xx} |`,
    `| plain Fastify route, same JSON size | ${baseline.rps} | ${baseline.p50} | ${baseline.p99} | ${baseline.errors} | ${baseline.non2xx} |`,
  ].join('\n');
  console.log(`\n${table}\n\nplain / gateway throughput ratio: ${ratio.toFixed(1)}x\n${connections} connections, ${duration} s per route; ${machine}\nreproduce: ${command}\n`);
  if (gateway.errors > 0 || gateway.non2xx > 0) {
    console.error('the gateway answered errors under load');
    exitCode = 1;
  }
  if (!smoke) {
    const file = `${root}docs/benchmarks.md`;
    const section = `## Gateway: authenticated user read vs plain Fastify\n\n${date}, ${machine}. ${connections} connections, ${duration} s per route after a 3 s warm-up; autocannon, the servers and the stack share the 2 cores.\n\n${table}\n\nThe plain route serves ${ratio.toFixed(1)} times the requests of the authenticated gRPC path.\n\nReproduce: \`${command}\`\n`;
    let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\nLatest figures of each benchmark under `bench/`. Full runs are made by hand; CI runs smoke runs only.\n\n';
    doc = /## Gateway: authenticated user read vs plain Fastify\n[\s\S]*?(?=\n## |$)/.test(doc)
      ? doc.replace(/## Gateway: authenticated user read vs plain Fastify\n[\s\S]*?(?=\n## |$)/, section)
      : `${doc.trimEnd()}\n\n${section}`;
    writeFileSync(file, doc);
    console.log(`recorded in docs/benchmarks.md`);
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await stack.stop();
  plain.kill('SIGTERM');
}
process.exit(exitCode);
