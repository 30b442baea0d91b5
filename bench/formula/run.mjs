#!/usr/bin/env node
// Formula benchmark: evaluations per second of a compiled 20-token formula, and parse+compile per second.
//   full:  node bench/formula/run.mjs          (records the figures in docs/benchmarks.md)
//   smoke: node bench/formula/run.mjs --smoke
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, totalmem, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compileFormula, compileUncached, FormulaError } from '@fieldwork/sampler';

const smoke = process.argv.includes('--smoke');
const seconds = smoke ? 0.3 : Number(process.env.BENCH_SECONDS ?? 3);
// 20 tokens: ROUND ( Q1_1 * Q1_2 + Q1_3 / 4 - 2 ^ 2 , 2 ) + IF ( Q1_1 > 5 ... counted by the lexer below.
const FORMULA = 'ROUND((Q1_1*Q1_2+Q1_3/4-2^2)*10%,2)';
const tokens = FORMULA.match(/Q\d+_\d+|\d+(\.\d+)?|[A-Z]+|[()*/+\-^%,]/g);
const answers = { '1_1': 12, '1_2': 3.5, '1_3': 40 };
const ctx = { ref: (b, i) => answers[`${b}_${i}`] ?? new FormulaError('REF'), now: () => new Date() };

function rate(label, fn) {
  for (let i = 0; i < 2000; i++) fn(i); // warm-up
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  while (performance.now() < end) for (let i = 0; i < 1000; i++, n++) fn(n);
  const perSecond = n / ((performance.now() - start) / 1000);
  console.log(
    `${label.padEnd(44)} ${Math.round(perSecond).toLocaleString('en')} /s (${(1e6 / perSecond).toFixed(2)} µs each)`,
  );
  return perSecond;
}

const load = loadavg()[0].toFixed(1); // the machine may be shared: say how busy it was
const compiled = compileFormula(FORMULA);
const value = compiled.evaluate(ctx);
if (value !== 4.8) throw new Error(`the benchmark formula gave ${value}, expected 4.8`);
let sink = 0;
const evals = rate('evaluate the compiled formula', (i) => {
  answers['1_1'] = 12 + (i & 7);
  sink += compiled.evaluate(ctx);
});
// Issue 21's two evaluation figures: a simple formula, and one with 5 function calls.
const SIMPLE = 'Q1_1*2+1';
const CALLS5 = 'ROUND(SUM(Q1_1,Q1_2),1)+MAX(Q1_1,3)+ABS(Q1_2)+IF(Q1_1>5,1,0)';
const simple = compileFormula(SIMPLE);
const calls5 = compileFormula(CALLS5);
answers['1_1'] = 12;
if (simple.evaluate(ctx) !== 25 || calls5.evaluate(ctx) !== 32) throw new Error('the benchmark formulas changed');
const simpleEvals = rate(`evaluate ${SIMPLE}`, (i) => {
  answers['1_1'] = 12 + (i & 7);
  sink += simple.evaluate(ctx);
});
const calls5Evals = rate('evaluate a formula with 5 function calls', (i) => {
  answers['1_1'] = 12 + (i & 7);
  sink += calls5.evaluate(ctx);
});
answers['1_1'] = 12;
const compiles = rate('parse + compile (no cache)', () => {
  sink += compileUncached(FORMULA).refs.length;
});
const cached = rate('compileFormula (cached)', () => {
  sink += compileFormula(FORMULA).refs.length;
});
if (sink === 0) console.log('');

const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
const command = smoke ? 'node bench/formula/run.mjs --smoke' : `BENCH_SECONDS=${seconds} node bench/formula/run.mjs`;
console.log(`formula: ${FORMULA} (${tokens.length} tokens); ${machine}; load average ${load}\nreproduce: ${command}`);
if (!smoke) {
  const file = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
  const date = new Date().toISOString().slice(0, 10);
  const section = `## Formula language: evaluate and compile\n\n${date}, ${machine}. Formula \`${FORMULA}\` (${tokens.length} tokens), ${seconds} s per figure after a warm-up, one core; load average ${load} when it started (a shared machine: other work ran beside it). Parse + compile takes a hand-written fast path for the common forms, ohm-js for the rest and for errors (issue 21).\n\n| operation | per second | each |\n|---|---:|---:|\n| evaluate the compiled closure | ${Math.round(evals).toLocaleString('en')} | ${(1e6 / evals).toFixed(2)} µs |\n| evaluate \`${SIMPLE}\` | ${Math.round(simpleEvals).toLocaleString('en')} | ${(1e6 / simpleEvals).toFixed(2)} µs |\n| evaluate \`${CALLS5}\` (5 calls) | ${Math.round(calls5Evals).toLocaleString('en')} | ${(1e6 / calls5Evals).toFixed(2)} µs |\n| parse + compile (no cache) | ${Math.round(compiles).toLocaleString('en')} | ${(1e6 / compiles).toFixed(1)} µs |\n| compileFormula with its cache hit | ${Math.round(cached).toLocaleString('en')} | ${(1e6 / cached).toFixed(2)} µs |\n\nReproduce: \`${command}\`\n`;
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const re = /## Formula language: evaluate and compile\n[\s\S]*?(?=\n## |$)/;
  doc = re.test(doc) ? doc.replace(re, section) : `${doc.trimEnd()}\n\n${section}`;
  writeFileSync(file, doc);
  console.log('recorded in docs/benchmarks.md');
}
