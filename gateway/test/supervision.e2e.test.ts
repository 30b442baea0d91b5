// The launcher supervises its processes (issue 23 §10): a service that dies or hangs is restarted with backoff and
// logged, and the other services and the gateway keep answering meanwhile; `npm start` no longer stops the whole
// stack when one service exits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { client, login, type Api, type Session } from './helpers.js';

let t: TestStack;
let api: Api;
let owner: Session;
let project: number;
let schema: number;
const launcherLog = () => {
  try {
    return readFileSync(join(t.logDir, 'launcher.log'), 'utf8');
  } catch {
    return '';
  }
};

beforeAll(async () => {
  t = await startTestStack({
    supervise: { probeEveryMs: 500, failuresBeforeRestart: 3, firstBackoffMs: 500, stopGraceMs: 1000 },
  });
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
  const made = await api<{ id: number; sampler_schemas: { id: number }[] }>('POST', 'project/', {
    token: owner.access,
    body: {
      name: 'Supervised',
      organization_pk: owner.organization.id,
      geotag: { type: 'Point', coordinates: [0, 0] },
    },
  });
  expect(made.status).toBe(201);
  project = made.body.id;
  schema = made.body.sampler_schemas[0]!.id;
}, 120_000);
afterAll(async () => {
  // A stopped (SIGSTOP) process left behind by a failed assertion must not keep the run waiting.
  for (const child of t?.stack.children.values() ?? []) child.process.kill('SIGCONT');
  await t?.stop();
});

/** Asks the gateway for `path` every 100 ms (a call that does not need the stopped service); counts failures. */
function neighbours(path: string) {
  let failures = 0;
  let calls = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const r = await api('GET', path, { token: owner.access }).catch((err: unknown) => ({
        status: 0,
        body: String(err),
      }));
      calls++;
      if (r.status !== 200) {
        failures++;
        process.stderr.write(`[supervision] GET ${path}: ${r.status} ${JSON.stringify(r.body)}\n`);
      }
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { calls, failures };
    },
  };
}

const formsAnswer = async () => (await api('GET', `samplerschema/${schema}/`, { token: owner.access })).status;

describe('the launcher supervises its processes', () => {
  it('restarts a service killed with SIGKILL, with backoff, while the others keep answering', async () => {
    expect(await formsAnswer()).toBe(200);
    const before = t.stack.children.get('forms')!;
    // A project's page embeds its forms; the account's does not.
    const watch = neighbours(`accounts/user/${owner.user.id}/`);
    before.process.kill('SIGKILL');
    await before.exited;
    await expect.poll(() => t.stack.children.get('forms') !== before, { timeout: 30_000, interval: 100 }).toBe(true);
    await expect.poll(() => formsAnswer().catch(() => 0), { timeout: 60_000, interval: 250 }).toBe(200);
    const { calls, failures } = await watch.stop();
    expect(calls).toBeGreaterThan(5);
    expect(failures).toBe(0);
    expect(t.stack.children.get('forms')!.process.pid).not.toBe(before.process.pid);
    expect(launcherLog()).toMatch(/forms exited \(signal SIGKILL\); restarting in 0\.5 s/);
    expect(t.stack.supervisor!.restarts.get('forms')).toBe(1);
    // Every caller of the forms service (the projects service embeds a project's forms) reconnects within seconds.
    await expect
      .poll(async () => (await api('GET', `project/${project}/`, { token: owner.access })).status, {
        timeout: 10_000,
        interval: 250,
      })
      .toBe(200);
  }, 120_000);

  it('restarts a service that stops answering its health check (a blocked event loop), and only that one', async () => {
    const hung = t.stack.children.get('exports')!;
    const others = new Map(
      [...t.stack.children].filter(([name]) => name !== 'exports').map(([name, c]) => [name, c.process.pid]),
    );
    const watch = neighbours(`project/${project}/`);
    // SIGSTOP: the process is there but answers nothing, as with a busy loop; it ignores SIGTERM until killed.
    hung.process.kill('SIGSTOP');
    await expect
      .poll(() => launcherLog(), { timeout: 30_000, interval: 200 })
      .toMatch(/exports stopped answering its health check/);
    await hung.exited;
    await expect.poll(() => launcherLog(), { timeout: 60_000, interval: 250 }).toMatch(/exports is answering again/);
    const { failures } = await watch.stop();
    expect(failures).toBe(0);
    expect(t.stack.children.get('exports')!.process.pid).not.toBe(hung.process.pid);
    for (const [name, pid] of others)
      expect(t.stack.children.get(name)!.process.pid, `${name} was not restarted`).toBe(pid);
    expect((await fetch(`${t.baseUrl}/readyz`)).status).toBe(200);
  }, 120_000);
});
