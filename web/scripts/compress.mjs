#!/usr/bin/env node
// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside each text file of web/dist, for the
// gateway to serve pre-compressed (@fastify/static `preCompressed`). Runs after `vite build`, so that the service
// worker and workbox files that vite-plugin-pwa writes at the very end are compressed too. Source maps are left
// plain (only developer tools fetch them), and so is a file that compression would not make smaller.
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt|csv|xml)$/i;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

const br = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const started = performance.now();
const todo = [];
for await (const path of files(DIST)) {
  // Copies left by an earlier run over the same dist are made again from their file.
  if (/\.(br|gz)$/.test(path)) await unlink(path);
  else if (TEXT.test(path) && (await stat(path)).size >= MIN_BYTES) todo.push(path);
}
let raw = 0;
let brotli = 0;
await Promise.all(
  todo.map(async (path) => {
    const data = await readFile(path);
    const [b, g] = await Promise.all([
      br(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
      gz(data, { level: 9 }),
    ]);
    raw += data.length;
    if (b.length < data.length) await writeFile(`${path}.br`, b);
    if (g.length < data.length) await writeFile(`${path}.gz`, g);
    brotli += Math.min(b.length, data.length);
  }),
);
const kb = (n) => `${Math.round(n / 1024).toLocaleString('en')} KiB`;
console.log(
  `compressed ${todo.length} files of ${relative(process.cwd(), DIST) || 'dist'}: ${kb(raw)} -> ${kb(brotli)} brotli, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
