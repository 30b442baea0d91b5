// CPU profiles of a benchmark's stack (`--profile`): every process started with the preload, the profiler started
// just before the load and stopped after it, then where each process spent its time, by package and by function.
// The .cpuprofile files stay in the directory printed (open them in Chromium's DevTools, Performance tab).
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PRELOAD = fileURLToPath(new URL('preload.mjs', import.meta.url));

/** Environment for the stack's processes (startTestStack's extraEnv), and the directory the profiles go to. */
export function profiling() {
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-profile-'));
  return { dir, env: { NODE_OPTIONS: `--import ${PRELOAD}`, FIELDWORK_PROFILE_DIR: dir } };
}

const signal = (stack, sig) => {
  for (const child of stack.stack.children.values()) child.process.kill(sig);
};
export const startProfiles = (stack) => signal(stack, 'SIGUSR1');
export async function stopProfiles(stack) {
  signal(stack, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 2000));
}

const shortUrl = (url) =>
  url
    .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^file:\/\/\/.*?\/(?=(?:gateway|services|packages)\/)/, '');

function packageOf(url) {
  const m = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const ours = /\/((?:gateway|services\/[^/]+|packages\/[^/]+))\//.exec(url);
  if (ours) return ours[1];
  return '';
}

/** Self time of one profile, by package (or V8's own entries: idle, GC, program) and by function. */
export function summarize(file, top = 12) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, { ...n, self: 0 }]));
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const d = p.timeDeltas[i] ?? 0;
    byId.get(p.samples[i]).self += d;
    total += d;
  }
  const packages = new Map();
  const functions = new Map();
  for (const n of byId.values()) {
    if (!n.self) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const pkg = packageOf(url) || functionName || '(native)';
    packages.set(pkg, (packages.get(pkg) ?? 0) + n.self);
    const fn = `${functionName || '(anonymous)'} ${shortUrl(url) || '(native)'}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + n.self);
  }
  const rank = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => ({ share: v / total, name: k }));
  return { ms: total / 1000, packages: rank(packages), functions: rank(functions) };
}

/** Prints each process's summary (the busiest first) and answers them by process name. */
export function report(dir, names = ['gateway', 'responses']) {
  const out = {};
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const name = f.split('-')[0];
    if (!names.includes(name)) continue;
    const s = summarize(join(dir, f));
    out[name] = s;
    const pct = (x) => `${(100 * x.share).toFixed(1).padStart(5)}%`;
    console.log(`\n${name}: ${s.ms.toFixed(0)} ms profiled`);
    console.log(s.packages.map((x) => `  ${pct(x)} ${x.name}`).join('\n'));
    console.log('  top functions:');
    console.log(s.functions.map((x) => `  ${pct(x)} ${x.name}`).join('\n'));
  }
  console.log(`\nprofiles in ${dir}`);
  return out;
}
