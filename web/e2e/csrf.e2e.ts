// A page on another site cannot act for, read as, or frame the signed-in user: the session lives in the web app's
// localStorage (no cookie to ride on), CORS refuses other origins, and frame-ancestors refuses framing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';

test('a page on another site cannot act for, read as, or frame the signed-in user (CSRF, CORS, frame-ancestors)', async ({
  page,
  owner,
  api,
  stack,
  shot,
}) => {
  const org = api.session.organization.id;
  const workspace = async () => (await api.request('GET', `organization/${org}/`)).body;
  await page.goto('/projects');
  await page.waitForURL(/\/login-home\/login/);
  const loginAnswer = page.waitForResponse((r) => r.url().endsWith('/api/api-token-auth/'));
  await logIn(page, owner, page.getByTestId('projects-screen'));
  expect((await loginAnswer).headers()['set-cookie'], 'the login answer sets no cookie').toBeUndefined();
  expect(await page.context().cookies(), 'no cookie for another site to ride on').toEqual([]);
  const before = await workspace();

  // The other site (localhost is another origin and another site than 127.0.0.1) tries every trick a browser allows.
  const gateway = stack.baseUrl;
  const body = JSON.stringify({ name: 'CSRF', organization_pk: org, geotag: { type: 'Point', coordinates: [0, 0] } });
  const evil = `<!doctype html><html><body>
<iframe name="sink"></iframe>
<form id="plain" method="POST" action="${gateway}/api/project/" enctype="text/plain" target="sink"><input name='${body.slice(0, -1)},"x":"' value='"}'></form>
<form id="urlenc" method="POST" action="${gateway}/api/project/" target="sink"><input name="name" value="CSRF"><input name="organization_pk" value="${org}"></form>
<iframe id="framed" src="${gateway}/projects"></iframe>
<script>
window.results = {};
document.getElementById('plain').submit();
setTimeout(() => document.getElementById('urlenc').submit(), 300);
const attempt = (name, p) => p.then((r) => r.text().then((text) => (window.results[name] = 'read: ' + r.status + ' ' + text.slice(0, 80))), (e) => (window.results[name] = 'blocked: ' + e.name));
attempt('read', fetch('${gateway}/api/organization/${org}/', { credentials: 'include' }));
attempt('json', fetch('${gateway}/api/project/', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(body)} }));
attempt('login', fetch('${gateway}/api/api-token-auth/', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: '${owner.username}', password: '${owner.password}' }) }));
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
    // Give the delayed form and the frame time to land.
    await page.waitForTimeout(1500);
    const results = await page.evaluate<Record<string, string>>('window.results');
    expect(results, 'CORS keeps the other site from reading or sending JSON').toEqual({
      read: 'blocked: TypeError',
      json: 'blocked: TypeError',
      login: 'blocked: TypeError',
    });
    // The cross-site forms reached the gateway and were refused: not a JSON object (400) and no Authorization header (401).
    expect(formAnswers.length, 'the cross-site forms were sent').toBeGreaterThanOrEqual(1);
    for (const status of formAnswers)
      expect([400, 401, 415], `cross-site forms refused (${formAnswers.join(', ')})`).toContain(status);
    // The web app refuses to be framed by another site.
    const framed = await (await page.locator('#framed').elementHandle())?.contentFrame();
    const framedText =
      (await framed?.evaluate<string>("document.body ? document.body.innerText : ''").catch(() => '')) ?? '';
    expect(framedText, 'the web app does not render inside another site').not.toMatch(/projects|Projects/);
    await shot('other-site');
  } finally {
    server.close();
  }
  expect(await workspace(), 'nothing changed in the workspace').toEqual(before);
  expect(JSON.stringify(await workspace())).not.toContain('"CSRF"');
});
