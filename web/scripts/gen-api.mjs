// Generates the web app's API types (src/api/schema.d.ts) from the gateway's OpenAPI document, with
// openapi-typescript. The gateway is built in this process (no listening, no services: the document is made from
// the routes' schemas alone) and asked for /api/docs/json. Needs the built gateway (`pnpm run build` or `tsc -b`).
//   node scripts/gen-api.mjs          write src/api/schema.d.ts
//   node scripts/gen-api.mjs --check  exit 1 when the committed file differs from what the gateway makes now (CI)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));
const target = fileURLToPath(new URL('../src/api/schema.d.ts', import.meta.url));
const HEADER = [
  "// Generated from the gateway's OpenAPI document (/api/docs/json) by web/scripts/gen-api.mjs with openapi-typescript.",
  '// Do not edit: change the route schemas (gateway/src/schemas/) and run `pnpm --filter @fieldwork/web run gen:api`.',
  '',
].join('\n');

/** The OpenAPI document of the gateway as built from this checkout. */
export async function openApiDocument() {
  const appJs = `${root}gateway/dist/app.js`;
  if (!existsSync(appJs))
    throw new Error(`${appJs} is missing: build the gateway first (pnpm run build, or pnpm exec tsc -b).`);
  const { buildGateway } = await import(pathToFileURL(appJs).href);
  const { createLogger } = await import(pathToFileURL(`${root}packages/service-kit/dist/index.js`).href);
  const app = await buildGateway({
    clients: {},
    log: createLogger('gen-api', 'silent'),
    options: { jwtSecret: 'x'.repeat(32), bodyLimit: 1024 * 1024, corsOrigins: '', webDir: '', tls: false },
  });
  try {
    await app.ready();
    const r = await app.inject({ url: '/api/docs/json' });
    if (r.statusCode !== 200) throw new Error(`/api/docs/json answered ${r.statusCode}`);
    return JSON.parse(r.payload);
  } finally {
    await app.close();
  }
}

/** The text of src/api/schema.d.ts for a document. */
export async function generate(doc) {
  const ast = await openapiTS(doc, { alphabetize: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await generate(await openApiDocument());
  if (process.argv.includes('--check')) {
    const committed = existsSync(target) ? readFileSync(target, 'utf8') : '';
    if (committed !== text) {
      console.error(
        "web/src/api/schema.d.ts differs from the gateway's OpenAPI document: run `pnpm --filter @fieldwork/web run gen:api` and commit the result.",
      );
      process.exit(1);
    }
    console.log('web/src/api/schema.d.ts is current.');
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
}
