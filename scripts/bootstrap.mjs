#!/usr/bin/env node
// Entry of `npm start` and `npm test` on a fresh machine with only Node.js: installs pnpm if missing, installs
// dependencies, builds what changed, then starts the stack or runs every test tier. No dependencies of its own.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const PNPM_VERSION = '10.34.8';
const mode = process.argv[2];
const t0 = Date.now();
const say = (msg) => console.log(`\x1b[1m[fieldwork]\x1b[0m ${msg}`);

function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...options });
  return r.status ?? 1;
}

function must(cmd, args, what) {
  const code = sh(cmd, args);
  if (code !== 0) {
    say(`${what} failed (exit ${code})`);
    process.exit(code);
  }
}

/** pnpm on PATH, else the copy installed under .tools/ (installed there if global install is not possible). */
function pnpmCommand() {
  const global = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (global.status === 0 && global.stdout.trim() === PNPM_VERSION) return 'pnpm';
  const local = join(ROOT, '.tools', 'node_modules', '.bin', 'pnpm');
  if (existsSync(local)) return local;
  say(`installing pnpm ${PNPM_VERSION}`);
  if (global.status !== 0 && sh('npm', ['install', '-g', `pnpm@${PNPM_VERSION}`, '--no-fund', '--no-audit']) === 0)
    return 'pnpm';
  must(
    'npm',
    ['install', '--prefix', join(ROOT, '.tools'), `pnpm@${PNPM_VERSION}`, '--no-fund', '--no-audit'],
    'installing pnpm',
  );
  return local;
}

function newest(dir, skip = new Set(['node_modules', 'dist'])) {
  let max = 0;
  if (!existsSync(dir)) return max;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const p = join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p, skip) : statSync(p).mtimeMs);
  }
  return max;
}
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

function build(pnpm) {
  say('installing dependencies');
  must(pnpm, ['install', '--frozen-lockfile', '--reporter=append-only'], 'pnpm install');
  if (mtime(join(ROOT, 'packages/proto/src/gen/auth.ts')) < newest(join(ROOT, 'proto'))) {
    say('generating gRPC code from proto/');
    must(pnpm, ['run', 'build:proto'], 'code generation');
  }
  say('compiling TypeScript');
  must(pnpm, ['exec', 'tsc', '-b'], 'tsc -b');
  // The browser tests (web/e2e) are not part of the app: editing them does not rebuild it.
  const webSources = Math.max(
    newest(join(ROOT, 'web'), new Set(['node_modules', 'dist', 'e2e'])),
    mtime(join(ROOT, 'pnpm-lock.yaml')),
  );
  if (mtime(join(ROOT, 'web/dist/index.html')) < webSources) {
    say('building the web app');
    must(pnpm, ['--filter', '@fieldwork/web', 'run', 'build'], 'web build');
  }
}

function runForeground(cmd, args) {
  // Ctrl-C goes to the whole foreground group; the child handles it and stops its own children in order.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const pnpm = pnpmCommand();
if (mode === 'start') {
  build(pnpm);
  runForeground(process.execPath, [join(ROOT, 'scripts/dist/start.js')]);
} else if (mode === 'test') {
  build(pnpm);
  // The static checks read files only and mostly wait on one core each: they run side by side, their output shown
  // whole as each ends.
  const checks = [
    ['type-check the tests', pnpm, ['exec', 'tsc', '-p', 'tsconfig.tests.json']],
    // Apart: they type code that runs in the page (DOM), which the Node tests must not see.
    ['type-check the browser tests', pnpm, ['exec', 'tsc', '-p', 'web/e2e/tsconfig.json']],
    ['lint', pnpm, ['exec', 'eslint', '.', '--max-warnings', '0']],
    // Formatting is Prettier's (.prettierrc.json); `pnpm format` fixes what this finds.
    ['format', pnpm, ['exec', 'prettier', '--check', '.']],
    // The web app's API types are generated from the gateway's OpenAPI document: a route schema changed without
    // `pnpm --filter @fieldwork/web run gen:api` fails here.
    ['generated API types are current', pnpm, ['--filter', '@fieldwork/web', 'run', 'gen:api', '--check']],
    ['dependency audit (high and critical advisories)', process.execPath, [join(ROOT, 'scripts/audit.mjs')]],
  ];
  const steps = [
    ['unit tests', pnpm, ['exec', 'vitest', 'run', '--project', 'unit', '--project', 'web']],
    ['integration tests', pnpm, ['exec', 'vitest', 'run', '--project', 'integration']],
    ['API end-to-end tests', pnpm, ['exec', 'vitest', 'run', '--project', 'e2e']],
    ['browser end-to-end tests', pnpm, ['--filter', '@fieldwork/e2e', 'test']],
    ['benchmark smoke runs', process.execPath, [join(ROOT, 'bench/gateway/run.mjs'), '--smoke']],
    ['formula benchmark smoke run', process.execPath, [join(ROOT, 'bench/formula/run.mjs'), '--smoke']],
    ['ingest benchmark smoke run', process.execPath, [join(ROOT, 'bench/ingest/run.mjs'), '--smoke']],
    ['freshness benchmark smoke run', process.execPath, [join(ROOT, 'bench/freshness/run.mjs'), '--smoke']],
    ['results benchmark smoke run', process.execPath, [join(ROOT, 'bench/results/run.mjs'), '--smoke']],
    ['aggregates ingest benchmark smoke run', process.execPath, [join(ROOT, 'bench/aggregates/run.mjs'), '--smoke']],
    ['export benchmark smoke run', process.execPath, [join(ROOT, 'bench/export/run.mjs'), '--smoke']],
    ['import benchmark smoke run', process.execPath, [join(ROOT, 'bench/import/run.mjs'), '--smoke']],
    [
      'form-import isolation benchmark smoke run',
      process.execPath,
      [join(ROOT, 'bench/form-isolation/run.mjs'), '--smoke'],
    ],
    ['XLSForm conversion benchmark smoke run', process.execPath, [join(ROOT, 'bench/xlsform/run.mjs'), '--smoke']],
    [
      'web app benchmark smoke run (Chromium, unthrottled)',
      process.execPath,
      [join(ROOT, 'bench/web/run.mjs'), '--smoke'],
    ],
    [
      'load test smoke run (the k6 scenarios with autocannon)',
      process.execPath,
      [join(ROOT, 'loadtest/run.mjs'), '--smoke'],
    ],
  ];
  const results = [];
  say(`── ${checks.map(([name]) => name).join(', ')} (side by side)`);
  results.push(
    ...(await Promise.all(
      checks.map(
        ([name, cmd, args]) =>
          new Promise((done) => {
            const started = Date.now();
            const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
            const out = [];
            child.stdout.on('data', (b) => out.push(b));
            child.stderr.on('data', (b) => out.push(b));
            child.on('close', (code) => {
              say(`── ${name}`);
              process.stdout.write(Buffer.concat(out));
              done([name, code ?? 1, ((Date.now() - started) / 1000).toFixed(1)]);
            });
          }),
      ),
    )),
  );
  for (const [name, cmd, args] of steps) {
    const started = Date.now();
    say(`── ${name}`);
    const code = sh(cmd, args);
    results.push([name, code, ((Date.now() - started) / 1000).toFixed(1)]);
  }
  console.log('');
  for (const [name, code, secs] of results) say(`${code === 0 ? 'PASS' : 'FAIL'}  ${name} (${secs} s)`);
  const failed = results.filter(([, code]) => code !== 0).length;
  say(`${failed === 0 ? 'all passed' : `${failed} step(s) failed`} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  process.exit(failed === 0 ? 0 : 1);
} else {
  console.error('usage: node scripts/bootstrap.mjs start|test');
  process.exit(64);
}
