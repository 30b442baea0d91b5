// Browser end-to-end tests: playwright-core driving Debian's Chromium against the built web app served by the
// gateway of a whole test stack. Each scenario is a user's whole task; screenshots go to artifacts/screenshots/.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strict as assert } from 'node:assert';
import postgres from 'postgres';
import ExcelJS from 'exceljs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem } from '@fieldwork/sampler';
import { auth } from '@fieldwork/proto';
import { createClient } from '@fieldwork/service-kit';
import { aptInstall } from './infra/system.js';
import { repoPath } from './paths.js';
import { startTestStack, type TestStack } from './harness.js';
import { seedDemoData } from './demo-data.js';

const CHROMIUM = '/usr/bin/chromium';
const shots = repoPath('artifacts', 'screenshots');

type Scenario = [name: string, run: (page: Page, t: TestStack) => Promise<void>];

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

async function login(page: Page, t: TestStack, username: string, password: string): Promise<void> {
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.getByTestId('login-submit').click();
}

const scenarios: Scenario[] = [
  [
    'the demo user logs in, accepts the terms and privacy policy, sees the projects and logs out',
    async (page, t) => {
      await page.goto(`${t.baseUrl}/projects`);
      await page.waitForURL(/\/login-home\/login/);
      assert.match(page.url(), /next=%2Fprojects|next=\/projects/, 'the login remembers the path to return to');
      await shot(page, '01-login');
      await login(page, t, t.demo.username, t.demo.password);
      await page.getByTestId('accept-terms').click();
      await shot(page, '02-legal-gate');
      await page.getByTestId('accept-privacy').click();
      await page.getByTestId('projects-screen').waitFor();
      const cards = page.getByTestId('project-card');
      await cards.first().waitFor();
      assert.equal(await cards.count(), 2);
      const text = await page.getByTestId('projects-screen').innerText();
      assert.match(text, /Household Survey/);
      assert.match(text, /Water Points/);
      assert.match(text, /Workspace Home/);
      await shot(page, '03-projects');
      await page.getByTestId('logout').click();
      await page.waitForURL(/\/login-home\/login/);
      await shot(page, '04-logged-out');
      await page.goto(`${t.baseUrl}/projects`);
      await page.waitForURL(/\/login-home\/login/);
    },
  ],
  [
    'a user who forgot the password resets it from the mailed link and logs in with the new one',
    async (page, t) => {
      const db = postgres(t.infra.databaseUrl, { max: 1, onnotice: () => {} });
      try {
        await page.goto(`${t.baseUrl}/login-home/login`);
        await page.getByTestId('forgot-password').click();
        await page.getByTestId('forgot-email').fill(t.demo.email);
        await page.getByTestId('forgot-submit').click();
        await page.getByTestId('forgot-sent').waitFor();
        let body = '';
        for (let i = 0; i < 50 && body === ''; i++) {
          const [row] = await db`select body from auth.mail_outbox where to_address = ${t.demo.email} and subject like '%reset%' order by id desc limit 1`;
          body = String(row?.body ?? '');
          if (body === '') await new Promise((r) => setTimeout(r, 100));
        }
        const link = /(\/reset-password\/[^\s]+)/.exec(body)?.[1];
        assert.ok(link, 'a reset link was mailed');
        await page.goto(`${t.baseUrl}${link}`);
        await page.locator('input[name="password"]').fill('a new demo password');
        await page.locator('input[name="confirm"]').fill('a new demo password');
        await shot(page, '05-reset-password');
        await page.getByTestId('reset-submit').click();
        await page.waitForURL(/\/login-home\/login/);
        await login(page, t, t.demo.username, 'a new demo password');
        await page.getByTestId('projects-screen').waitFor();
      } finally {
        await db.end();
      }
    },
  ],
  [
    'a user renames themselves, switches the language, and an unknown path falls back to the projects',
    async (page, t) => {
      await page.goto(`${t.baseUrl}/some/unknown/path`);
      await page.waitForURL(/\/login-home\/login/);
      await login(page, t, t.demo.username, 'a new demo password');
      await page.getByTestId('projects-screen').waitFor();
      await page.getByTestId('user-settings-link').click();
      await page.locator('input[name="name"]').fill('Ada  Maria Lovelace');
      await page.getByTestId('save-profile').click();
      await page.getByText('Ada Lovelace').first().waitFor();
      await page.getByTestId('language-select').selectOption('fr');
      await shot(page, '06-user-settings-fr');
      assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
      await page.goto(`${t.baseUrl}/no/such/screen`);
      await page.getByTestId('projects-screen').waitFor();
    },
  ],
  [
    'an owner creates a project with a location, adds a site, group, team and collector, changes the state, and bulk-uploads users',
    async (page, t) => {
      const answers: string[] = [];
      page.on('dialog', (d) => void (d.type() === 'prompt' ? d.accept(answers.shift() ?? '') : d.accept()));
      await page.goto(`${t.baseUrl}/login-home/login`);
      await login(page, t, t.demo.username, 'a new demo password');
      await page.getByTestId('projects-screen').waitFor();
      await page.getByTestId('new-project').click();
      await page.getByTestId('project-name').fill('Malaria Survey');
      await page.getByTestId('project-lat').fill('-3.3869');
      await page.getByTestId('project-lng').fill('36.683');
      await shot(page, '07-project-editor');
      await page.getByTestId('project-save').click();
      await page.waitForURL(/\/project\/\d+\/settings\/parameters$/);
      const projectId = /\/project\/(\d+)\//.exec(page.url())![1];

      await page.getByTestId('settings-sites').click();
      await page.locator('input[name="site-name"]').fill('Arusha');
      await page.locator('input[name="site-lat"]').fill('-3.37');
      await page.locator('input[name="site-lng"]').fill('36.68');
      await page.locator('input[name="site-start"]').fill('2026-03-01');
      await page.locator('input[name="site-end"]').fill('2026-03-31');
      await page.getByTestId('site-save').click();
      const arusha = page.getByTestId('site').filter({ hasText: 'Arusha' });
      await arusha.waitFor();
      await arusha.getByRole('button', { name: 'Arusha' }).click();
      assert.equal(await page.getByTestId('site-duration').innerText(), '30 days');
      await page.keyboard.press('Escape');
      await page.getByTestId('site-popup').getByRole('button', { name: 'Close' }).click();
      answers.push('North Group');
      await arusha.getByTestId('add-group').click();
      await arusha.getByTestId('group').filter({ hasText: 'North Group' }).waitFor();
      answers.push('Team One');
      await arusha.getByTestId('group').filter({ hasText: 'North Group' }).getByTestId('add-team').click();
      await arusha.getByTestId('team').filter({ hasText: 'Team One' }).waitFor();
      await shot(page, '08-sites');

      await page.getByTestId('settings-collectors').click();
      await page.locator('input[name="user-email"]').fill('field.worker@example.org');
      await page.locator('input[name="user-first"]').fill('Field');
      await page.locator('input[name="user-last"]').fill('Worker');
      await page.locator('select[name="user-team"]').selectOption({ label: 'Team One' });
      await page.getByTestId('add-user-save').click();
      await page.getByTestId('user-row').filter({ hasText: 'field.worker@example.org' }).waitFor();
      const csv = 'email,first_name,last_name,role,site,group,team\nbulk.ok@example.org,Bulk,Ok,collector,Arusha,North Group,Team One\nnot-an-email,Bad,Row,collector,,,\n';
      await page.getByTestId('bulk-file').setInputFiles({ name: 'bulk_user_template.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      const report = page.getByTestId('bulk-report');
      await report.waitFor();
      assert.match(await report.innerText(), /1 added, 1 failed/);
      assert.match(await report.innerText(), /Row 2 not-an-email: "not-an-email": Enter a valid email address\./);
      await page.getByTestId('user-row').filter({ hasText: 'bulk.ok@example.org' }).waitFor();
      await shot(page, '09-collectors');

      await page.getByTestId('settings-parameters').click();
      await page.getByTestId('status-select').selectOption('O');
      await page.getByTestId('status-save').click();
      assert.equal(
        await page.getByTestId('status-error').innerText(),
        'Before changing project status to live, you will need to add at least one question to your form.',
      );
      await page.getByTestId('status-select').selectOption('F');
      await page.getByTestId('status-save').click();
      await page.getByTestId('project-state').filter({ hasText: 'Finalized' }).waitFor();
      await shot(page, '10-parameters');
      await page.goto(`${t.baseUrl}/projects?view=map`);
      await page.getByTestId('map').waitFor();
      await page.waitForTimeout(500);
      await shot(page, '11-projects-map');
      assert.ok(projectId);
    },
  ],
  [
    'an owner builds a form with every question type, a condition and a calculation, saves, reloads it unchanged, and imports an XLSForm',
    async (page, t) => {
      await page.goto(`${t.baseUrl}/login-home/login`);
      await login(page, t, t.demo.username, 'a new demo password');
      await page.getByTestId('projects-screen').waitFor();
      await page.getByTestId('new-project').click();
      await page.getByTestId('project-name').fill('Form Build');
      await page.getByTestId('project-lat').fill('1');
      await page.getByTestId('project-lng').fill('2');
      await page.getByTestId('project-save').click();
      await page.waitForURL(/\/project\/\d+\/settings\/parameters$/);
      const projectId = /\/project\/(\d+)\//.exec(page.url())![1]!;
      await page.getByTestId('nav-builder').click();
      await page.getByTestId('builder').waitFor();
      await page.getByTestId('add-category').click();
      await page.getByTestId('category-name').fill('Household');

      const add = async (type: string, name: string) => {
        await page.getByTestId('add-question-type').selectOption(type);
        await page.getByTestId('add-question').click();
        await page.getByTestId('question-name').fill(name);
      };
      let numberRef = '';
      const types = ['binary', 'choice', 'open', 'number', 'date', 'currency', 'geotag', 'barcode', 'image', 'reference_project', 'signature', 'concatenation'];
      for (const type of types) {
        await add(type, `The ${type} question`);
        if (type === 'choice') {
          await page.getByTestId('add-choice').click();
          await page.getByTestId('add-choice').click();
          await page.getByTestId('choice-input').nth(0).fill('Wood');
          await page.getByTestId('choice-input').nth(1).fill('Gas');
        }
        if (type === 'number') numberRef = await page.getByTestId('question-ref').innerText();
        if (type === 'open') await page.getByTestId('question-code').fill('first_name');
        if (type === 'date') await page.getByTestId('question-code').fill('born');
        if (type === 'concatenation') await page.getByTestId('concatenation-input').fill('first_name, born');
      }
      await add('instruction', 'Read this');
      await page.getByTestId('instruction-text').fill('Ask the oldest person present.');
      await add('calculated', 'Twice the number');
      await page.getByTestId('formula-input').fill(`${numberRef}*`);
      const formulaError = await page.getByTestId('formula-error').innerText();
      assert.match(formulaError, /^Not a valid formula! Line 1, col \d+: .* Your calculation will not be saved until fixed\.$/);
      await page.getByTestId('formula-input').fill(`${numberRef}*2`);
      await page.getByTestId('formula-ok').waitFor();
      assert.equal(await page.getByTestId('dirty-flag').innerText(), 'Unsaved changes');

      await page.getByTestId('add-category').click();
      await page.getByTestId('category-name').fill('Follow-up');
      await page.getByTestId('condition-item').selectOption({ label: 'The binary question' });
      await page.getByTestId('condition-choice').first().check();
      await page.getByTestId('condition-add').click();
      await page.getByTestId('condition-entry').first().waitFor();
      await add('open', 'Why yes?');
      await shot(page, '12-builder');
      await page.getByTestId('save-form').click();
      await page.getByTestId('dirty-flag').filter({ hasText: 'All changes saved' }).waitFor();

      const schemaJson = () =>
        page.evaluate(async (id) => {
          // Runs in the page: the browser's storage and fetch.
          const token = (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('fw.access');
          const headers = { Authorization: `JWT ${token}` };
          const project = (await (await fetch(`/api/project/${id}/`, { headers })).json()) as { sampler_schemas: { id: number }[] };
          const schema = (await (await fetch(`/api/samplerschema/${project.sampler_schemas[0]!.id}/`, { headers })).json()) as Record<string, unknown>;
          return JSON.stringify({ form: schema.form, entities: schema.entities, counters: schema.counters });
        }, projectId);
      const before = await schemaJson();
      const parsed = JSON.parse(before) as { entities: { items: Record<string, { type: string; deleted: boolean }> }; form: number[] };
      assert.equal(Object.values(parsed.entities.items).filter((i) => !i.deleted).length, 15);
      assert.equal(parsed.form.length, 2);
      await page.reload();
      await page.getByTestId('builder').waitFor();
      assert.deepEqual(await page.getByTestId('category-item').allInnerTexts(), ['Household', 'Follow-up']);
      await page.getByTestId('category-item').first().click();
      // The list renders after the click: wait for it rather than read it at once.
      await page.getByTestId('question-item').nth(13).waitFor();
      const names = await page.getByTestId('question-item').allInnerTexts();
      assert.equal(names.length, 14);
      assert.ok(names.some((n) => n.startsWith('Twice the number')));
      assert.equal(await schemaJson(), before);
      assert.equal(await page.getByTestId('dirty-flag').innerText(), 'All changes saved');

      await page.getByTestId('panel-preview').click();
      await page.getByTestId('preview').waitFor();
      await page.getByTestId('preview-question').filter({ hasText: 'The number question' }).locator('input').fill('21');
      assert.equal(await page.getByTestId('preview-calculated').innerText(), '42');
      await shot(page, '13-preview');

      // Discard restores the last saved copy.
      await page.getByTestId('panel-edit').click();
      await page.getByTestId('add-category').click();
      await page.getByTestId('discard-form').click();
      assert.equal(await page.getByTestId('category-item').count(), 2);

      // An XLSForm through the form-from-upload screen.
      const wb = new ExcelJS.Workbook();
      wb.addWorksheet('survey').addRows([
        ['type', 'name', 'label', 'relevant'],
        ['begin group', 'farm', 'Farm', ''],
        ['select_one crop', 'crop', 'Main crop', ''],
        ['decimal', 'acres', 'Acres', "${crop} = 'maize'"],
        ['end group', '', '', ''],
        ['start', 'start', '', ''],
      ]);
      wb.addWorksheet('choices').addRows([
        ['list_name', 'name', 'label'],
        ['crop', 'maize', 'Maize'],
        ['crop', 'beans', 'Beans'],
      ]);
      await page.goto(`${t.baseUrl}/project/${projectId}/create-form-from-upload`);
      await page.getByTestId('form-file').setInputFiles({ name: 'farm.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(await wb.xlsx.writeBuffer()) });
      const report = page.getByTestId('conversion-report');
      await report.waitFor();
      assert.match(await report.innerText(), /farm\.xlsx \(XLSForm\): 2 questions/);
      assert.match(await report.innerText(), /Metadata "start"/);
      await shot(page, '14-xlsform');
      await page.getByTestId('open-builder').click();
      await page.getByTestId('category-item').filter({ hasText: 'Farm' }).waitFor();
    },
  ],
  [
    'a collector fills a form offline, reloads, goes back online, and finds the response in the list and in the API',
    async (page, t) => {
      // The project and its form, through the API.
      const api = async (method: string, path: string, token: string, body?: unknown) => {
        const res = await fetch(`${t.baseUrl}/api/${path}`, {
          method,
          headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely typed API answers in a test
        return { status: res.status, body: (await res.json()) as Record<string, any> };
      };
      const tokens = await fetch(`${t.baseUrl}/api/api-token-auth/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: t.demo.username, password: 'a new demo password' }),
      }).then((r) => r.json() as Promise<{ access: string; organization: { id: number } }>);
      const project = (await api('POST', 'project/', tokens.access, { name: 'Offline Survey', organization_pk: tokens.organization.id, geotag: { type: 'Point', coordinates: [2, 1] } })).body;
      const schemaId = project.sampler_schemas[0].id as number;
      const b = addBlock(newSchemaBody('S'), { en: 'Household' });
      const adults = addItem(b.body, b.id, 'number', 'en', 'Adults');
      const fuel = addItem(adults.body, b.id, 'choice', 'en', 'Fuel');
      const wood = addChoice(fuel.body, fuel.id, 'en', 'Wood');
      const gas = addChoice(wood.body, fuel.id, 'en', 'Gas');
      const double = addItem(gas.body, b.id, 'calculated', 'en', 'Double');
      const body = updateItem(double.body, double.id, { options: { ...double.body.entities.items[double.id]!.options, formula: `Q${b.id}_${adults.id} * 2` } });
      assert.equal((await api('PUT', `samplerschema/${schemaId}/`, tokens.access, { ...body, revision: 1 })).status, 200);

      // Online once: the app, the form and the project are kept on the device.
      await page.goto(`${t.baseUrl}/login-home/login?next=${encodeURIComponent(`/project/${project.id}/collect/${schemaId}/list`)}`);
      await login(page, t, t.demo.username, 'a new demo password');
      await page.getByTestId('response-list').waitFor();
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await page.reload();
      await page.getByTestId('response-list').waitFor();
      await page.getByRole('link', { name: 'New record' }).first().click();
      await page.getByTestId('collect-form').waitFor();

      // Offline: fill and complete; the calculation follows the answer; validity first.
      await page.context().setOffline(true);
      await page.getByTestId('complete-response').click();
      assert.match(await page.getByTestId('validity-message').innerText(), /At least one question must be answered to save this record\./);
      await page.locator(`[data-item="${adults.id}"] input`).fill('4');
      assert.equal(await page.getByTestId('calculated').innerText(), '8');
      await page.locator(`[data-item="${fuel.id}"] label`, { hasText: 'Gas' }).locator('input').check();
      await shot(page, '15-collect-offline-form');
      await page.getByTestId('complete-response').click();
      await page.getByTestId('response-list').waitFor();
      const row = page.getByTestId('response-row').first();
      await row.getByText('Waiting to upload').waitFor();
      const responseId = (await row.getAttribute('data-response-id'))!;

      // Still offline: a reload keeps everything.
      await page.reload();
      await page.getByTestId('response-list').waitFor();
      await page.getByTestId('response-row').filter({ hasText: 'Waiting to upload' }).first().waitFor();
      await shot(page, '16-collect-offline-after-reload');
      assert.equal((await api('GET', `project/${project.id}/response/single/${responseId}/`, tokens.access)).status, 404, 'nothing reached the server while offline');

      // Online: it uploads by itself.
      await page.context().setOffline(false);
      await page.getByTestId('response-row').filter({ hasText: 'Uploaded' }).first().waitFor({ timeout: 20_000 });
      await shot(page, '17-collect-synced');
      const stored = await api('GET', `project/${project.id}/response/single/${responseId}/`, tokens.access);
      assert.equal(stored.status, 200);
      assert.equal(stored.body.completed, true);
      assert.deepEqual(stored.body.data, { '0': { [adults.id]: 4, [fuel.id]: [gas.id], [double.id]: 8 } });
    },
  ],
  [
    'a respondent answers through an anonymous link and lands on the success page; an expired link says so',
    async (page, t) => {
      const tokens = await fetch(`${t.baseUrl}/api/api-token-auth/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: t.demo.username, password: 'a new demo password' }),
      }).then((r) => r.json() as Promise<{ access: string; organization: { id: number } }>);
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${t.baseUrl}/api/${path}`, { method, headers: { 'content-type': 'application/json', authorization: `JWT ${tokens.access}` }, body: body === undefined ? undefined : JSON.stringify(body) }).then(
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely typed API answers in a test
          async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }),
        );
      const project = (await call('POST', 'project/', { name: 'Public Survey', organization_pk: tokens.organization.id, geotag: { type: 'Point', coordinates: [2, 1] } })).body;
      const schemaId = project.sampler_schemas[0].id as number;
      const b = addBlock(newSchemaBody('S'), { en: 'About you' });
      const q = addItem(b.body, b.id, 'open', 'en', 'Your town');
      assert.equal((await call('PUT', `samplerschema/${schemaId}/`, { ...q.body, revision: 1 })).status, 200);
      const survey = (await call('POST', `project/${project.id}/surveys/`, { expiry_date: '2099-01-01T00:00:00Z' })).body;
      await page.goto(`${t.baseUrl}/collect/anonymous/${survey.token}/resp@example.org`);
      await page.getByTestId('public-collect').waitFor();
      await page.locator(`[data-item="${q.id}"] input`).fill('Lyon');
      await page.getByTestId('complete-response').click();
      await page.getByTestId('collect-success').waitFor();
      await shot(page, '18-anonymous-success');
      let list: { results: { email: string; data: Record<string, Record<string, unknown>> }[] } = { results: [] };
      for (let i = 0; i < 40 && list.results.length === 0; i++) {
        list = (await call('GET', `project/${project.id}/response/`)).body as typeof list;
        if (list.results.length === 0) await page.waitForTimeout(250);
      }
      assert.equal(list.results.length, 1);
      assert.equal(list.results[0]!.email, 'resp@example.org');
      assert.equal(list.results[0]!.data['0']![String(q.id)], 'Lyon');
      const db = postgres(t.infra.databaseUrl, { max: 1, onnotice: () => undefined });
      await db`update projects.surveys set expiry_date = now() - interval '1 day' where token = ${survey.token}`;
      await db.end();
      await page.goto(`${t.baseUrl}/collect/survey/${survey.token}`);
      assert.equal(await page.getByTestId('link-failure').innerText(), 'This link has expired.');
    },
  ],
  [
    'a manager sees charts of the seeded project, switches to tables, filters by site, and opens a shared item logged out',
    async (page, t) => {
      const addresses = { projects: `127.0.0.1:${t.ports.projects}`, forms: `127.0.0.1:${t.ports.forms}`, responses: `127.0.0.1:${t.ports.responses}` };
      await seedDemoData(addresses, { userId: t.demo.userId, organizationId: t.demo.organizationId }, () => undefined, 400);
      await page.goto(`${t.baseUrl}/projects`);
      await login(page, t, t.demo.username, 'a new demo password');
      await page.getByTestId('project-card').filter({ hasText: 'Household Survey' }).first().click();
      await page.getByTestId('nav-results').click();
      await page.getByTestId('results-page').waitFor();
      // Ingestion into ClickHouse is asynchronous: wait for all 400 (reload until the count is there).
      for (let i = 0; i < 40; i++) {
        const summary = await page.getByTestId('level-summary').innerText({ timeout: 15_000 });
        if (/^400 responses/.test(summary)) break;
        await page.waitForTimeout(500);
        await page.reload();
      }
      assert.match(await page.getByTestId('level-summary').innerText(), /^400 responses/);
      // Charts: plotly draws SVG; a choice question with more than 2 options is a bar chart, the binary one a pie.
      const cards = page.locator('[data-testid^="result-"][data-kind]');
      await page.locator('.chart .main-svg').first().waitFor({ timeout: 30_000 });
      // The queue loads the items six at a time and the first chart can come before the later ones (tables).
      await page.locator('[data-testid^="result-"][data-kind="none"]').first().waitFor({ timeout: 30_000 });
      const kinds = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
      assert.ok(kinds.includes('bar') && kinds.includes('pie') && kinds.includes('line') && kinds.includes('none'), `chart kinds: ${kinds.join(',')}`);
      await page.getByTestId('results-map').waitFor();
      await shot(page, '19-results-charts');
      await page.getByTestId('mode-table').click();
      await page.locator('.result-table').first().waitFor();
      assert.equal(await page.locator('.chart .main-svg').count(), 0, 'no charts in table mode');
      const firstCount = async () => (await page.locator('.result-card .muted').first().innerText()).trim();
      const before = await firstCount();
      await page.locator('.export-toggle input').first().check();
      assert.match(await page.getByTestId('export-list').innerText(), /^1 question in the export list/);
      await shot(page, '20-results-table');
      // Export: a job with a progress bar, then the browser downloads the file and says so.
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('export-kind').selectOption('named_csv')]);
      const csv = readFileSync((await download.path())!, 'utf8');
      const lines = csv.trim().split('\n');
      assert.match(lines[0]!, /response_id,parent_id,Site,.*Household members/);
      assert.ok(lines.length >= 401, `exported ${lines.length - 1} rows`);
      await page.getByTestId('export-success').waitFor();
      await shot(page, '20b-export-success');
      await page.getByTestId('export-success').getByRole('button', { name: 'Close' }).last().click();
      // A site filter: fewer responses, then toggle it off and on.
      await page.getByTestId('add-filter').selectOption('site');
      // The seeded responses are at the five named sites, not the default one.
      const option = page.getByTestId('filter-value').locator('option').filter({ hasNotText: /Default Site|Choose/ }).first();
      await page.getByTestId('filter-value').selectOption((await option.getAttribute('value'))!);
      await page.getByTestId('filter-apply').click();
      await page.getByTestId('filter-chip').waitFor();
      for (let i = 0; i < 60 && /^400 responses/.test(await page.getByTestId('level-summary').innerText()); i++) await page.waitForTimeout(250);
      const filtered = Number((await page.getByTestId('level-summary').innerText()).split(' ')[0]);
      assert.ok(filtered > 0 && filtered < 400, `filtered to ${filtered}`);
      assert.notEqual(await firstCount(), before);
      await shot(page, '21-results-filtered');
      // The profile view of one household: tables except for numbers, whose charts are area-splines.
      await page.getByTestId('mode-chart').click();
      const profileOption = page.getByTestId('profile').locator('option').nth(1);
      await page.getByTestId('profile').selectOption((await profileOption.getAttribute('value'))!);
      await page.waitForURL(/\/results\/\d+\/profile\//);
      await page.locator('[data-kind="area-spline"] .chart .main-svg').first().waitFor({ timeout: 30_000 });
      assert.match(await page.getByTestId('level-summary').innerText(), /^1 responses/);
      const water = page.locator('[data-testid^="result-"][data-kind]', { hasText: 'Main water source' });
      await water.locator('.result-table').waitFor();
      assert.equal(await water.locator('.chart').count(), 0, 'choice questions are tables in the profile view');
      await shot(page, '21b-results-profile');
      await page.getByTestId('profile').selectOption('');
      await page.waitForURL(/\/results\/schema\/\d+$/);

      // An advanced result on the project view: the average household size, against thresholds.
      const projectId = /\/project\/(\d+)\//.exec(page.url())![1]!;
      const token = (await page.evaluate("localStorage.getItem('fw.access')")) as string;
      const schema = await fetch(`${t.baseUrl}/api/project/${projectId}/`, { headers: { authorization: `JWT ${token}` } })
        .then((r) => r.json() as Promise<{ sampler_schemas: { id: number }[] }>)
        .then((p) => fetch(`${t.baseUrl}/api/samplerschema/${p.sampler_schemas[0]!.id}/`, { headers: { authorization: `JWT ${token}` } }))
        .then((r) => r.json() as Promise<{ entities: { blocks: Record<string, { id: number; entities: { id: number }[] }>; items: Record<string, { id: number; name: { en: string } }> } }>);
      const members = Object.values(schema.entities.items).find((i) => i.name.en === 'Household members')!;
      const block = Object.values(schema.entities.blocks).find((b) => b.entities.some((e) => e.id === members.id))!;
      await page.getByTestId('nav-home').click();
      await page.getByTestId('advanced-new').click();
      await page.getByTestId('advanced-editor').locator('input[name="name"]').fill('Average household');
      await page.getByTestId('advanced-editor').locator('input[name="formula"]').fill('=AVERAGE(Q');
      await page.getByTestId('advanced-save').click();
      await page.getByTestId('advanced-editor').getByText(/Not a valid formula!/).waitFor();
      await page.getByTestId('advanced-editor').locator('input[name="formula"]').fill(`=AVERAGE(Q${block.id}_${members.id})`);
      await page.getByTestId('advanced-editor').locator('input[name="upper"]').fill('1');
      await page.getByTestId('advanced-save').click();
      const adv = page.getByTestId('advanced-result').filter({ hasText: 'Average household' });
      await adv.getByText(/Above 1\.00/).waitFor();
      assert.match(await adv.locator('.value').innerText(), /^\d+\.\d\d$/);
      await shot(page, '23-advanced-results');
      await page.getByTestId('nav-results').click();
      await page.getByTestId('results-page').waitFor();
      await page.getByTestId('mode-table').click();

      // Share the first charted item and open its public chart logged out.
      const shareCard = cards.filter({ has: page.locator('.result-table') }).first();
      const itemId = (await shareCard.getAttribute('data-testid'))!.replace('result-', '');
      await shareCard.getByRole('button', { name: 'Share' }).click();
      const link = page.getByTestId(`share-${itemId}`).getByRole('link', { name: 'item-chart' });
      const href = (await link.getAttribute('href'))!;
      const anonymous = await page.context().browser()!.newContext({ viewport: { width: 1000, height: 700 } });
      try {
        const pub = await anonymous.newPage();
        await pub.goto(href);
        await pub.getByTestId('shared-item').waitFor();
        await pub.getByTestId(`result-${itemId}`).waitFor();
        assert.equal(await pub.locator('[data-testid^="result-"][data-kind]').count(), 1, 'only that item');
        assert.ok(!pub.url().includes('login'), 'no login asked');
        await pub.locator('.chart .main-svg').first().waitFor({ timeout: 30_000 });
        await shot(pub, '22-shared-item');
        await pub.goto(href.replace('/item-chart/', '/item-table/'));
        await pub.locator('.result-table').waitFor();
        await pub.goto(href.replace('/item-chart/', '/item-results/').slice(0, -3) + 'xyz');
        await pub.getByText('Sorry. We could not find results for this item.').waitFor();
      } finally {
        await anonymous.close();
      }
    },
  ],
  [
    'an owner imports a CSV through the mapping screen, sees the refused rows in the preview and the report, and gets SQL access',
    async (page, t) => {
      // Imports need the workspace's ingestion feature.
      const admin = createClient(auth.AuthServiceClient, `127.0.0.1:${t.ports.auth}`);
      await admin.adminSetFeatures({ organization_id: t.demo.organizationId, enable: ['ingestion'], disable: [] });
      admin.close();
      // The demo password, changed by the reset scenario when it ran.
      let password = t.demo.password;
      let tokens = await apiLogin(t, t.demo.username, password);
      if (!tokens) tokens = await apiLogin(t, t.demo.username, (password = 'a new demo password'));
      assert.ok(tokens, 'the demo user logs in');
      const access = tokens.access;
      const call = (method: string, path: string, body: unknown) =>
        fetch(`${t.baseUrl}/api/${path}`, { method, headers: { 'content-type': 'application/json', authorization: `JWT ${access}` }, body: JSON.stringify(body) }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { id: number; count: number; sampler_schemas: { id: number }[] },
        }));
      const project = (await call('POST', 'project/', { name: 'Imported Farms', organization_pk: tokens.organization.id, geotag: { type: 'Point', coordinates: [2, 1] } })).body;
      const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
      const area = addItem(b.body, b.id, 'number', 'en', 'Area');
      const crop = addItem(area.body, b.id, 'choice', 'en', 'Crop');
      const maize = addChoice(crop.body, crop.id, 'en', 'Maize');
      const beans = addChoice(maize.body, crop.id, 'en', 'Beans');
      const note = addItem(beans.body, b.id, 'open', 'en', 'Note');
      assert.equal((await call('PUT', `samplerschema/${project.sampler_schemas[0]!.id}/`, { ...note.body, revision: 1 })).status, 200);

      await page.goto(`${t.baseUrl}/project/${project.id}/import`);
      await login(page, t, t.demo.username, password);
      // Run alone, the terms of the first scenario are still to accept.
      await page.getByTestId('import-page').or(page.getByTestId('accept-terms')).first().waitFor();
      if (await page.getByTestId('accept-terms').isVisible()) {
        await page.getByTestId('accept-terms').click();
        await page.getByTestId('accept-privacy').click();
      }
      await page.getByTestId('import-page').waitFor();
      const csv = 'Hectares,Crop,Note,Extra\n12,Maize,first farm,x\nlots,Beans,second farm,x\n3,Rice,third farm,x\n';
      await page.getByTestId('import-file').setInputFiles({ name: 'farms.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByTestId('import-preview').waitFor();
      // Crop and Note are recognised by their labels; Hectares is mapped by hand, Extra stays out.
      assert.equal(await page.getByTestId('map-Crop').inputValue(), String(crop.id));
      assert.equal(await page.getByTestId('map-Hectares').inputValue(), '');
      await page.getByTestId('map-Hectares').selectOption(String(area.id));
      await page.locator('td.bad', { hasText: 'Enter a number.' }).waitFor();
      await page.locator('td.bad', { hasText: 'is not a choice of this question.' }).waitFor();
      await shot(page, '24-import-mapping');
      await page.getByTestId('import-start').click();
      await page.getByTestId('import-done').waitFor({ timeout: 60_000 });
      assert.match(await page.getByTestId('import-done').innerText(), /1 stored, 0 unchanged, 2 refused/);
      const report = await fetch(new URL((await page.getByTestId('import-report').getAttribute('href'))!, t.baseUrl)).then((r) => r.text());
      assert.match(report, /2,Hectares,lots,Enter a number\./);
      assert.match(report, /3,Crop,Rice,.*Rice.* is not a choice of this question\./);
      await shot(page, '25-import-done');
      const stored = await call('POST', `project/${project.id}/response-chunk/filter/?page=1&page_size=10`, {});
      assert.equal(stored.body.count, 1);

      // SQL access: credentials shown once, then revoked.
      await page.getByTestId('sql-enable').click();
      assert.match(await page.getByTestId('sql-credentials').innerText(), /user=fw_sql_\w+\npassword=\S+\nselect \* from sql_p\d+\.responses;/);
      await shot(page, '26-sql-access');
      await page.getByTestId('sql-disable').click();
      await page.getByText('SQL access is revoked.').waitFor();
      assert.equal(await page.getByTestId('sql-credentials').count(), 0);
    },
  ],
  [
    'a page on another site cannot act for, read as, or frame the signed-in user (CSRF, CORS, frame-ancestors)',
    async (page, t) => {
      // Signed in through the web app: the session lives in this origin's localStorage, the API sets no cookie.
      const password = (await apiLogin(t, t.demo.username, t.demo.password)) ? t.demo.password : 'a new demo password';
      const tokens = (await apiLogin(t, t.demo.username, password))!;
      await page.goto(`${t.baseUrl}/projects`);
      await page.waitForURL(/\/login-home\/login/);
      const loginAnswer = page.waitForResponse((r) => r.url().endsWith('/api/api-token-auth/'));
      await login(page, t, t.demo.username, password);
      assert.equal((await loginAnswer).headers()['set-cookie'], undefined, 'the login answer sets no cookie');
      await page.waitForURL((url) => !url.pathname.startsWith('/login-home'));
      assert.equal((await page.context().cookies()).length, 0, 'no cookie for another site to ride on');
      const projectsBefore = await fetch(`${t.baseUrl}/api/organization/${tokens.organization.id}/`, { headers: { authorization: `JWT ${tokens.access}` } }).then((r) => r.text());

      // The other site (localhost is another origin and another site than 127.0.0.1) tries every trick a browser allows.
      const gateway = t.baseUrl;
      const body = JSON.stringify({ name: 'CSRF', organization_pk: tokens.organization.id, geotag: { type: 'Point', coordinates: [0, 0] } });
      const evil = `<!doctype html><html><body>
<iframe name="sink"></iframe>
<form id="plain" method="POST" action="${gateway}/api/project/" enctype="text/plain" target="sink"><input name='${body.slice(0, -1)},"x":"' value='"}'></form>
<form id="urlenc" method="POST" action="${gateway}/api/project/" target="sink"><input name="name" value="CSRF"><input name="organization_pk" value="${tokens.organization.id}"></form>
<iframe id="framed" src="${gateway}/projects"></iframe>
<script>
window.results = {};
document.getElementById('plain').submit();
setTimeout(() => document.getElementById('urlenc').submit(), 300);
const attempt = (name, p) => p.then((r) => r.text().then((text) => (window.results[name] = 'read: ' + r.status + ' ' + text.slice(0, 80))), (e) => (window.results[name] = 'blocked: ' + e.name));
attempt('read', fetch('${gateway}/api/organization/${tokens.organization.id}/', { credentials: 'include' }));
attempt('json', fetch('${gateway}/api/project/', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(body)} }));
attempt('login', fetch('${gateway}/api/api-token-auth/', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: '${t.demo.username}', password: '${password}' }) }));
</script></body></html>`;
      const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(evil));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      try {
        const formAnswers: number[] = [];
        page.on('response', (r) => {
          if (r.url() === `${gateway}/api/project/` && r.request().method() === 'POST') formAnswers.push(r.status());
        });
        await page.goto(`http://localhost:${port}/`);
        await page.waitForFunction('Object.keys(window.results || {}).length === 3', undefined, { timeout: 15_000 });
        await page.waitForTimeout(1500);
        const results = await page.evaluate<Record<string, string>>('window.results');
        assert.deepEqual(results, { read: 'blocked: TypeError', json: 'blocked: TypeError', login: 'blocked: TypeError' }, 'CORS keeps the other site from reading or sending JSON');
        // The cross-site forms reached the gateway and were refused: not a JSON object (400) and no Authorization header (401).
        assert.ok(formAnswers.length >= 1 && formAnswers.every((s) => s === 400 || s === 401 || s === 415), `cross-site forms refused (${formAnswers.join(', ')})`);
        // The web app refuses to be framed by another site.
        const framed = page.frames().find((f) => f !== page.mainFrame());
        const framedText = await framed?.evaluate<string>("document.body ? document.body.innerText : ''").catch(() => '');
        assert.ok(!/projects|Projects/.test(framedText ?? ''), 'the web app does not render inside another site');
        await shot(page, '40-csrf-page');
      } finally {
        server.close();
      }
      const projectsAfter = await fetch(`${t.baseUrl}/api/organization/${tokens.organization.id}/`, { headers: { authorization: `JWT ${tokens.access}` } }).then((r) => r.text());
      assert.equal(projectsAfter, projectsBefore, 'nothing changed in the workspace');
      assert.ok(!projectsAfter.includes('"CSRF"'));
    },
  ],
  [
    'the chart and map libraries stay out of the first screen and the install-time precache, then are kept for offline use',
    async (page, t) => {
      const password = (await apiLogin(t, t.demo.username, t.demo.password)) ? t.demo.password : 'a new demo password';
      const heavy = /\/assets\/(plotly|MapView)[^/]*\.js$/;
      const early: string[] = [];
      const onRequest = (r: { url(): string }) => void (heavy.test(r.url()) && early.push(r.url()));
      page.context().on('request', onRequest);
      await page.goto(`${t.baseUrl}/login-home/login`);
      await login(page, t, t.demo.username, password);
      await page.getByTestId('projects-screen').or(page.getByTestId('accept-terms')).first().waitFor();
      if (await page.getByTestId('accept-terms').isVisible()) {
        await page.getByTestId('accept-terms').click();
        await page.getByTestId('accept-privacy').click();
      }
      await page.getByTestId('project-card').first().waitFor();
      page.context().off('request', onRequest);
      assert.deepEqual(early, [], 'no plotly or deck.gl chunk before the first screen is usable');
      // Once the service worker is in control, a reload keeps the API answers for offline use (as a collector does).
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await page.reload();
      await page.getByTestId('project-card').first().waitFor();
      // Runs in the page: the service worker's caches.
      const cached = (prefix: string) =>
        page.evaluate(async (p) => {
          const c = (globalThis as unknown as { caches: { keys(): Promise<string[]>; open(n: string): Promise<{ keys(): Promise<{ url: string }[]> }> } }).caches;
          const urls: string[] = [];
          for (const name of await c.keys()) if (name.startsWith(p)) urls.push(...(await (await c.open(name)).keys()).map((r) => r.url));
          return urls;
        }, prefix);
      const precached = await cached('workbox-precache');
      assert.ok(precached.some((u) => /\/assets\/index-[^/]+\.js/.test(u)), 'the app shell is precached');
      assert.ok(!precached.some((u) => heavy.test(new URL(u).pathname)), 'plotly and deck.gl are not in the install-time precache');
      let kept: string[] = [];
      for (let i = 0; i < 120 && !(kept.some((u) => /plotly/.test(u)) && kept.some((u) => /MapView/.test(u))); i++) {
        await page.waitForTimeout(500);
        kept = await cached('fw-heavy');
      }
      assert.ok(kept.some((u) => /plotly/.test(u)) && kept.some((u) => /MapView/.test(u)), `kept after the first screen: ${kept.join(', ')}`);

      // Offline: the app reloads, the map view draws from the kept deck.gl chunks, plotly answers from the cache.
      await page.context().setOffline(true);
      await page.reload();
      await page.getByTestId('project-card').first().waitFor();
      await page.getByTestId('view-mode').selectOption('map');
      await page.getByTestId('map').waitFor();
      await shot(page, '41-offline-map');
      const plotly = kept.find((u) => /plotly/.test(u))!;
      assert.equal(await page.evaluate(async (u) => (await fetch(u)).status, plotly), 200, 'plotly is served offline');
      await page.context().setOffline(false);
    },
  ],
];

async function apiLogin(t: TestStack, username: string, password: string): Promise<{ access: string; organization: { id: number } } | undefined> {
  const r = await fetch(`${t.baseUrl}/api/api-token-auth/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  return r.status === 200 ? ((await r.json()) as { access: string; organization: { id: number } }) : undefined;
}

async function main(): Promise<number> {

  if (!existsSync(CHROMIUM)) await aptInstall(['chromium'], (m) => console.log(`[browser-tests] ${m}`));
  if (!existsSync(repoPath('web', 'dist', 'index.html'))) throw new Error('web/dist is missing: build the web app first');
  mkdirSync(shots, { recursive: true });
  // BROWSER_SCENARIOS=1,2,8 runs only those (1-based; later scenarios rely on earlier ones, e.g. the password of 2).
  const only = (process.env.BROWSER_SCENARIOS ?? '').split(',').filter(Boolean).map(Number);
  const t = await startTestStack();
  let browser: Browser | undefined;
  let failed = 0;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    for (const [name, run] of scenarios.filter((_, i) => only.length === 0 || only.includes(i + 1))) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const started = Date.now();
      try {
        await run(page, t);
        assert.deepEqual(errors, [], 'no uncaught errors in the page');
        console.log(`  ✓ ${name} (${Date.now() - started} ms)`);
      } catch (err) {
        failed++;
        await shot(page, `failed-${scenarios.findIndex((s) => s[0] === name) + 1}`).catch(() => {});
        console.log(`  ✗ ${name}\n    ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser?.close();
    await t.stop();
  }
  console.log(`${(only.length || scenarios.length) - failed} passed, ${failed} failed; screenshots in ${shots}`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
