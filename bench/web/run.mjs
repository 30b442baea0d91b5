#!/usr/bin/env node
// Web app benchmark: the built app served by the gateway of a whole test stack, loaded in Chromium throttled through
// CDP to a slow mobile network (1.6 Mbps down, 750 kbps up, 150 ms RTT). For the login, collect (new record) and
// results screens: time to usable, cold (a fresh browser context: no HTTP cache, no service worker) and warm (a
// second visit in the same context once the service worker is active and the network quiet), and the JS and CSS
// each screen loaded before it was usable: raw, gzip and brotli sizes of those files in web/dist, and the bytes the
// browser actually received for them cold.
//   full:  pnpm bench:web          (records the figures in docs/benchmarks.md)
//   smoke: node bench/web/run.mjs --smoke   (unthrottled, one run, records nothing)
import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import postgres from 'postgres';
import { seedDemoData, startTestStack } from '@fieldwork/launcher';
import { common, projects } from '@fieldwork/proto';
import { createClient } from '@fieldwork/service-kit';
import { BENCHMARKS_MD, recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
const RUNS = smoke ? 1 : Number(process.env.BENCH_RUNS ?? 3);
const RESPONSES = smoke ? 40 : Number(process.env.BENCH_RESPONSES ?? 400);
/** Responses of the project whose list is measured (written straight into PostgreSQL: the list reads only that). */
const LIST_RESPONSES = smoke ? 2000 : Number(process.env.BENCH_LIST_RESPONSES ?? 100_000);
/** 1.6 Mbps down, 750 kbps up, 150 ms RTT, in CDP's units (bytes per second, ms). */
const NETWORK = { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 93_750 };
const CHROMIUM = '/usr/bin/chromium';
const DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

if (!existsSync(`${DIST}/index.html`)) throw new Error('web/dist is missing: run `pnpm run build` first');
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);

/** Raw, gzip (level 9) and brotli (quality 11) sizes of a file of web/dist, computed once. */
const sizeCache = new Map();
function sizes(path) {
  let s = sizeCache.get(path);
  if (!s) {
    const file = `${DIST}${path}`;
    if (!existsSync(file)) return { raw: 0, gzip: 0, brotli: 0 };
    const data = readFileSync(file);
    s = {
      raw: data.length,
      gzip: gzipSync(data, { level: 9 }).length,
      brotli: brotliCompressSync(data, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
      }).length,
    };
    sizeCache.set(path, s);
  }
  return s;
}

const stack = await startTestStack();
let browser;
let exitCode = 0;
try {
  const api = async (method, path, token, body) => {
    const res = await fetch(`${stack.baseUrl}/api/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `JWT ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => null);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const login = () =>
    api('POST', 'api-token-auth/', undefined, { username: stack.demo.username, password: stack.demo.password });

  // The demo's Household Survey project: a form with every question type and RESPONSES responses at five sites.
  const who = { userId: stack.demo.userId, organizationId: stack.demo.organizationId };
  const addr = (s) => `127.0.0.1:${stack.ports[s]}`;
  await seedDemoData(
    { projects: addr('projects'), forms: addr('forms'), responses: addr('responses'), secret: stack.contextSecret },
    who,
    () => undefined,
    RESPONSES,
  );
  const p = createClient(projects.ProjectsServiceClient, addr('projects'), { secret: stack.contextSecret });
  const list = await p.listProjects({
    caller: common.Caller.fromPartial({ user_id: who.userId, organization_id: who.organizationId }),
    organization_id: who.organizationId,
  });
  p.close();
  const projectId = list.results.find((x) => x.name === 'Household Survey').id;
  const first = await login();
  await api('PUT', `accounts/user/${who.userId}/settings`, first.access, { agreed_terms: '1.1' });
  await api('PUT', `accounts/user/${who.userId}/settings`, first.access, { agreed_privacy: '1.0' });
  const project = await api('GET', `project/${projectId}/`, first.access);
  const schemaId = project.sampler_schemas[0].id;
  const schema = await api('GET', `samplerschema/${schemaId}/`, first.access);
  const members = Object.values(schema.entities.items).find((i) => i.name?.en === 'Household members');
  // Ingestion into ClickHouse is asynchronous: wait until the results count every response.
  for (let i = 0; ; i++) {
    const r = await api('POST', `project/${projectId}/results/schema/${schemaId}/item/`, first.access, {
      item_ids: [members.id],
      filters: {},
      time_zone: 'UTC',
    });
    if ((r.levels?.[0]?.total_filtered_responses ?? 0) >= RESPONSES) break;
    if (i > 240) throw new Error('the results never counted the seeded responses');
    await new Promise((r) => setTimeout(r, 500));
  }

  // The responses list of a big project: LIST_RESPONSES more responses, then the time of its first page over the API.
  const sql = postgres(stack.infra.databaseUrl, { max: 1, onnotice: () => undefined });
  const site = project.sites[0].id;
  await sql`
    insert into responses.responses (response_id, project_id, schema_id, user_id, site_id, completed, time_created, time_updated, data)
    select ${`${projectId}-${schemaId}-bench-`} || g, ${projectId}, ${schemaId}, ${who.userId}, ${site}, g % 3 = 0,
           now() - g * interval '1 minute', now() - g * interval '1 minute',
           jsonb_build_object('0', jsonb_build_object(${String(members.id)}::text, g % 12))
    from generate_series(1, ${LIST_RESPONSES}::int) g`;
  await sql`analyze responses.responses`;
  await sql.end();
  const pageTimes = [];
  for (let i = 0; i < 11; i++) {
    const t0 = performance.now();
    const page = await api('POST', `project/${projectId}/response-chunk/filter/?page=1&page_size=50`, first.access, {
      currentSamplerSchema: schemaId,
      filters: {},
    });
    pageTimes.push(performance.now() - t0);
    if (page.count < LIST_RESPONSES) throw new Error(`the list counts ${page.count} responses`);
  }
  const firstPageMs = [...pageTimes].sort((a, b) => a - b)[5];

  const screens = [
    {
      name: 'login',
      path: '/login-home/login',
      auth: false,
      usable: (page) => page.locator('input[name="username"]:enabled').waitFor(),
    },
    {
      name: 'collect',
      path: `/project/${projectId}/collect/newrecord`,
      auth: true,
      usable: (page) => page.locator('[data-testid="collect-form"] [data-item]').first().waitFor(),
    },
    {
      name: 'results',
      path: `/project/${projectId}/results`,
      auth: true,
      usable: (page) => page.locator('.chart .main-svg').first().waitFor(),
    },
    {
      name: `responses list (${LIST_RESPONSES.toLocaleString('en')} responses)`,
      path: `/project/${projectId}/collect/${schemaId}/list`,
      auth: true,
      usable: (page) => page.locator('[data-testid="response-row"]').first().waitFor(),
    },
  ];

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

  // The page's emulation does not cover what its service worker fetches (API reads, runtime-cached chunks): each
  // service worker target gets the same conditions, through a browser session attached to it (not flattened, so it
  // does not disturb playwright's own sessions).
  if (!smoke) {
    const b = await browser.newBrowserCDPSession();
    let id = 0;
    const throttled = new Set();
    const sendTo = (sessionId, method, params) =>
      b.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method, params }) });
    const onTarget = async ({ targetInfo: t }) => {
      if (t.type !== 'service_worker' || throttled.has(t.targetId)) return;
      throttled.add(t.targetId);
      const { sessionId } = await b
        .send('Target.attachToTarget', { targetId: t.targetId, flatten: false })
        .catch(() => ({}));
      if (!sessionId) return;
      await sendTo(sessionId, 'Network.enable', {}).catch(() => undefined);
      await sendTo(sessionId, 'Network.emulateNetworkConditions', NETWORK).catch(() => undefined);
    };
    b.on('Target.targetCreated', (e) => void onTarget(e));
    b.on('Target.targetInfoChanged', (e) => void onTarget(e));
    await b.send('Target.setDiscoverTargets', { discover: true });
  }

  /** Loads a screen in a page and measures it: ms to usable, the JS/CSS files requested before, the bytes received. */
  async function visit(page, cdp, screen) {
    const requested = new Map();
    const received = new Map();
    const onSent = (e) => requested.set(e.requestId, e.request.url);
    const onDone = (e) => received.set(e.requestId, e.encodedDataLength);
    cdp.on('Network.requestWillBeSent', onSent);
    cdp.on('Network.loadingFinished', onDone);
    const assets = new Set();
    const onRequest = (r) => {
      const url = new URL(r.url());
      if (
        url.origin === stack.baseUrl &&
        /\.(m?js|css)$/.test(url.pathname) &&
        ['script', 'stylesheet'].includes(r.resourceType())
      )
        assets.add(url.pathname);
    };
    page.on('request', onRequest);
    // BENCH_TRACE=1 prints each visit's requests (the page's and its service worker's) with their start and end.
    const trace = [];
    const onTraceEnd = (r) =>
      trace.push({
        url: r.url().replace(stack.baseUrl, ''),
        start: r.timing().startTime,
        end: r.timing().responseEnd,
        sw: r.serviceWorker() ? 'sw' : '',
      });
    if (process.env.BENCH_TRACE) page.context().on('requestfinished', onTraceEnd);
    const t0 = performance.now();
    const wall0 = Date.now();
    await page.goto(`${stack.baseUrl}${screen.path}`, { waitUntil: 'commit', timeout: 120_000 });
    await screen.usable(page);
    const ms = performance.now() - t0;
    page.off('request', onRequest);
    if (process.env.BENCH_TRACE) {
      page.context().off('requestfinished', onTraceEnd);
      console.log(`  ${screen.name} ${(ms / 1000).toFixed(2)} s:`);
      for (const x of trace.sort((a, b) => a.start - b.start))
        console.log(
          `    ${String(Math.round(x.start - wall0)).padStart(6)} ms +${String(Math.round(x.end)).padStart(5)} ${x.sw} ${x.url}`,
        );
    }
    const files = [...assets];
    for (const f of files) sizes(f);
    let transferred = 0;
    for (const [id, url] of requested)
      if (files.includes(new URL(url).pathname) && new URL(url).origin === stack.baseUrl)
        transferred += received.get(id) ?? 0;
    cdp.off('Network.requestWillBeSent', onSent);
    cdp.off('Network.loadingFinished', onDone);
    return { ms, files, transferred };
  }

  /**
   * Waits until the context (the page and its service worker: install, fetches after the first screen) has had no
   * request in flight for quietMs.
   */
  async function quiet(page, quietMs = 5000, maxMs = 180_000) {
    const context = page.context();
    let inFlight = 0;
    let last = performance.now();
    const up = () => (inFlight++, (last = performance.now()));
    const down = () => ((inFlight = Math.max(0, inFlight - 1)), (last = performance.now()));
    context.on('request', up);
    context.on('requestfinished', down);
    context.on('requestfailed', down);
    const t0 = performance.now();
    while (performance.now() - t0 < maxMs && (inFlight > 0 || performance.now() - last < quietMs))
      await page.waitForTimeout(100);
    context.off('request', up);
    context.off('requestfinished', down);
    context.off('requestfailed', down);
  }

  const runs = Object.fromEntries(screens.map((s) => [s.name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const screen of screens) {
      let storageState;
      if (screen.auth) {
        const t = await login();
        const now = String(Date.now());
        storageState = {
          cookies: [],
          origins: [
            {
              origin: stack.baseUrl,
              localStorage: [
                { name: 'fw.access', value: t.access },
                { name: 'fw.refresh', value: t.refresh },
                { name: 'fw.lastRefresh', value: now },
                { name: 'fw.lastLogin', value: now },
              ],
            },
          ],
        };
      }
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(120_000);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        if (!smoke) await cdp.send('Network.emulateNetworkConditions', NETWORK);
        const cold = await visit(page, cdp, screen);
        await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
        await quiet(page, smoke ? 1500 : 5000);
        const warm = await visit(page, cdp, screen);
        runs[screen.name].push({ cold, warm });
        console.log(
          `  run ${run + 1} ${screen.name}: cold ${(cold.ms / 1000).toFixed(2)} s (${cold.files.length} files, ${Math.round(cold.transferred / 1024)} KiB received), warm ${(warm.ms / 1000).toFixed(2)} s`,
        );
      } finally {
        await context.close();
      }
    }
  }

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const kb = (n) => Math.round(n / 1000).toLocaleString('en');
  const sec = (ms) => (ms / 1000).toFixed(2);
  const rows = screens.map((s) => {
    const r = runs[s.name];
    // What a screen loads before it is usable can differ between runs (a chunk that comes after it in one run may
    // come before it in another): each figure is the median over the runs.
    const sum = (files, ext, k) => files.filter((f) => f.endsWith(ext)).reduce((a, f) => a + sizes(f)[k], 0);
    const med = (ext, k) => median(r.map((x) => sum(x.cold.files, ext, k)));
    return {
      name: s.name,
      files: median(r.map((x) => x.cold.files.length)),
      js: { raw: med('js', 'raw'), gzip: med('js', 'gzip'), brotli: med('js', 'brotli') },
      css: { raw: med('css', 'raw'), gzip: med('css', 'gzip'), brotli: med('css', 'brotli') },
      received: median(r.map((x) => x.cold.transferred)),
      cold: median(r.map((x) => x.cold.ms)),
      warm: median(r.map((x) => x.warm.ms)),
      coldAll: r.map((x) => sec(x.cold.ms)).join(', '),
      warmAll: r.map((x) => sec(x.warm.ms)).join(', '),
    };
  });
  const table = [
    '| screen | JS+CSS files | JS raw kB | JS gzip kB | JS brotli kB | CSS raw / gzip / brotli kB | received cold kB | usable cold s | usable warm s | runs cold / warm s |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.files} | ${kb(r.js.raw)} | ${kb(r.js.gzip)} | ${kb(r.js.brotli)} | ${kb(r.css.raw)} / ${kb(r.css.gzip)} / ${kb(r.css.brotli)} | ${kb(r.received)} | ${sec(r.cold)} | ${sec(r.warm)} | ${r.coldAll} / ${r.warmAll} |`,
    ),
  ].join('\n');
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}, Chromium ${browser.version()}`;
  const command = smoke
    ? 'node bench/web/run.mjs --smoke'
    : `BENCH_RUNS=${RUNS} BENCH_RESPONSES=${RESPONSES} BENCH_LIST_RESPONSES=${LIST_RESPONSES} pnpm bench:web`;
  const network = smoke
    ? 'unthrottled (smoke)'
    : '1.6 Mbps down, 750 kbps up, 150 ms RTT (CDP Network.emulateNetworkConditions)';
  const listLine = `The first page of the responses list (50 of ${LIST_RESPONSES.toLocaleString('en')} responses, \`POST response-chunk/filter/\`, unthrottled, median of 11): ${Math.round(firstPageMs)} ms.`;
  console.log(
    `\n${network}; median of ${RUNS} run(s); ${RESPONSES} responses\n\n${table}\n\n${listLine}\ntargets: login and collect JS <= 250 kB gzip; collect usable <= 3 s cold and <= 1 s warm; results <= 8 s cold; the first page of a 100,000-response list under 1 s\n${machine}\nreproduce: ${command}\n`,
  );
  if (!smoke && !process.env.BENCH_TRACE) {
    const title = process.env.BENCH_WEB_TITLE ?? '### After';
    const date = new Date().toISOString().slice(0, 10);
    const section = `${title}\n\n${date}, ${machine}. ${network}, median of ${RUNS} runs; the Household Survey demo project with ${RESPONSES} responses in the results (and ${LIST_RESPONSES.toLocaleString('en')} more in PostgreSQL for the list). "Received cold" is what the browser received for those JS and CSS files on the cold visit (compressed when the gateway served them compressed; headers included; a file the service worker served once it took control of the page counts as what it received).\n\n${table}\n\n${listLine}\n\nReproduce: \`${command}\`\n`;
    recordWeb(title, section);
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await browser?.close();
  await stack.stop();
}
process.exit(exitCode);

/** The web section holds a before and an after table: each run replaces its own sub-section ("### ..."). */
function recordWeb(title, section) {
  const doc = existsSync(BENCHMARKS_MD) ? readFileSync(BENCHMARKS_MD, 'utf8') : '';
  const head = '## Web app: bytes and time to a usable screen on a slow network';
  const start = doc.indexOf(head);
  const end = start < 0 ? -1 : doc.indexOf('\n## ', start + head.length);
  let body = start < 0 ? '' : doc.slice(start + head.length, end < 0 ? undefined : end);
  const re = new RegExp(`${title.replace(/[()[\]*+?.^$|\\]/g, '\\$&')}\\n[\\s\\S]*?(?=\\n### |$)`);
  body = re.test(body) ? body.replace(re, section) : `${body.trimEnd()}\n\n${section}`;
  const intro = `bench/web: the built web app served by the gateway of a whole test stack, loaded by Chromium (playwright-core) throttled through CDP. Time to usable runs from the navigation to: the username input enabled (login), the new-record form's questions rendered (collect, \`/project/{id}/collect/newrecord\`), the first chart drawn (results, \`.chart .main-svg\`). Cold is a fresh browser context (no HTTP cache, no service worker); warm is a second visit in the same context once the service worker is active and the network quiet. JS and CSS are the files the screen requested before it was usable, their sizes computed from web/dist (gzip level 9, brotli quality 11). Targets (issue 17, item 8): login and collect need at most 250 kB of JS gzip; collect usable in at most 3 s cold and 1 s warm; results in at most 8 s cold.`;
  const parts = body
    .split(/\n(?=### )/)
    .filter((x) => x.trim().startsWith('### '))
    .sort((a, b) => (a.startsWith('### Before') ? -1 : b.startsWith('### Before') ? 1 : 0));
  recordSection(head, `${head}\n\n${intro}\n\n${parts.map((x) => x.trim()).join('\n\n')}\n`);
}
