// One access decision per request (issue 22 items 1-2): the gateway decides a caller's access to a project once,
// keeps it at most 15 s, and passes it to the services as a signed grant, which they use instead of asking the
// projects service. A role change reaches this gateway before its answer leaves and the other replicas through NATS;
// a grant forged, signed with another key, or made for someone else is never used by a service; and a call that does
// not carry the deployment's seal (service-kit call-seal.ts) is refused by every service before any handler runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, common, exports_, forms, projects, responses, results } from '@fieldwork/proto';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { CALL_SEAL_KEY, createClient, GRANT_KEY, sealCall, signGrant } from '@fieldwork/service-kit';
import { freePort, startChild, startTestStack, type Child, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let api2: Api;
let replica: Child;
let owner: Session;
let pid: number;
let responseId: string;
let researcher: { session: Session; id: number };

beforeAll(async () => {
  t = await startTestStack({ metrics: true });
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
  const gateway = t.stack.children.get('gateway')!;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...gateway.env, GATEWAY_PORT: String(port) };
  delete env.METRICS_PORT;
  replica = startChild('gateway-2', gateway.command, gateway.args, env, () => undefined);
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    if ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200) break;
  }
  api2 = client({ ...t, baseUrl: `http://127.0.0.1:${port}` });

  const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
  const n = addItem(b.body, b.id, 'number', 'en', 'Count');
  const p = (
    await api<Json>('POST', 'project/', {
      token: owner.access,
      body: { name: 'Grants', organization_pk: owner.organization.id, geotag: point(1, 1) },
    })
  ).body;
  pid = p.id;
  const schema = p.sampler_schemas[0].id as number;
  expect(
    (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...n.body, revision: 1 } })).status,
  ).toBe(200);
  responseId = `${pid}-${schema}-1-g-1`;
  expect(
    (
      await api('POST', `project/${pid}/response/`, {
        token: owner.access,
        body: { sampler_schema: schema, response_id: responseId, data: { '0': { [n.id]: 3 } } },
      })
    ).status,
  ).toBe(201);
  const made = await api<{ user_id: number }>('POST', 'api/v1/project-user/', {
    token: owner.access,
    body: { email: 'grant.researcher@example.org', password: 'grant pass 12', projectId: pid, researcher: true },
  });
  expect(made.status).toBe(200);
  await acceptInvitation(t, api, 'grant.researcher@example.org', 'grant pass 12');
  researcher = { session: await login(api, 'grant.researcher@example.org', 'grant pass 12'), id: made.body.user_id };
}, 240_000);
afterAll(async () => {
  await replica?.stop();
  await t?.stop();
});

/** fieldwork_project_access_total{source} of a service (the responses service by default). */
async function accessCount(source: 'grant' | 'asked', service: 'responses' | 'forms' = 'responses'): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${t.metricsPorts[service]}/metrics`)).text();
  const m = new RegExp(`^fieldwork_project_access_total\\{[^}]*source="${source}"[^}]*\\} (\\d+)`, 'm').exec(text);
  return Number(m?.[1] ?? 0);
}

const readOne = (a: Api, token: string) => a('GET', `project/${pid}/response/single/${responseId}/`, { token });

describe('access grants', () => {
  it('decides once at the gateway: the responses service takes the grant and does not ask the projects service', async () => {
    const before = { grant: await accessCount('grant'), asked: await accessCount('asked') };
    for (let i = 0; i < 5; i++) expect((await readOne(api, researcher.session.access)).status).toBe(200);
    expect(await accessCount('grant')).toBe(before.grant + 5);
    expect(await accessCount('asked')).toBe(before.asked);
  });

  it("decides a form's routes, keyed by schema, for the schema's project: the forms service takes the grant", async () => {
    const schema = Number(responseId.split('-')[1]);
    const before = { grant: await accessCount('grant', 'forms'), asked: await accessCount('asked', 'forms') };
    for (let i = 0; i < 3; i++) {
      expect((await api('GET', `samplerschema/${schema}/`, { token: researcher.session.access })).status).toBe(200);
      expect((await api('GET', `samplerschema/${schema}/versions/`, { token: owner.access })).status).toBe(200);
    }
    expect(await accessCount('grant', 'forms')).toBe(before.grant + 6);
    expect(await accessCount('asked', 'forms')).toBe(before.asked);
    // A schema that does not exist, and one of a project the caller has no role in, are both "Invalid schema id".
    const outsider = await api<Json>('POST', 'project/', {
      token: owner.access,
      body: { name: 'Grants elsewhere', organization_pk: owner.organization.id, geotag: point(1, 1) },
    });
    const elsewhere = outsider.body.sampler_schemas[0].id as number;
    for (const id of [elsewhere, 987_654_321]) {
      const r = await api<Json>('GET', `samplerschema/${id}/`, { token: researcher.session.access });
      expect(r.status, String(id)).toBe(404);
    }
  });

  it('stops a removed role at once on this gateway and within moments on the other, though both held the grant', async () => {
    expect((await readOne(api, researcher.session.access)).status).toBe(200);
    expect((await readOne(api2, researcher.session.access)).status).toBe(200);
    // Researcher → collector: a collector reads only their own responses.
    expect(
      (await api('PUT', `project/${pid}/users/${researcher.id}/`, { token: owner.access, body: { collector: true } }))
        .status,
    ).toBe(200);
    expect((await readOne(api, researcher.session.access)).status).not.toBe(200);
    // The other replica hears it through NATS: well within the grant's 15 s.
    const started = Date.now();
    await expect
      .poll(async () => (await readOne(api2, researcher.session.access)).status, { timeout: 3000, interval: 50 })
      .not.toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
    // Back to researcher: readable again on both.
    expect(
      (await api('PUT', `project/${pid}/users/${researcher.id}/`, { token: owner.access, body: { researcher: true } }))
        .status,
    ).toBe(200);
    expect((await readOne(api, researcher.session.access)).status).toBe(200);
    await expect
      .poll(async () => (await readOne(api2, researcher.session.access)).status, { timeout: 3000, interval: 50 })
      .toBe(200);
  });

  it('refuses a results read the role does not allow at the gateway, without calling the results service', async () => {
    const made = await api<{ user_id: number }>('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'grant.collector@example.org', password: 'grant pass 12', projectId: pid, collector: true },
    });
    expect(made.status).toBe(200);
    await acceptInvitation(t, api, 'grant.collector@example.org', 'grant pass 12');
    const collector = await login(api, 'grant.collector@example.org', 'grant pass 12');
    const calls = async () => {
      const text = await (await fetch(`http://127.0.0.1:${t.metricsPorts.results}/metrics`)).text();
      return [
        ...text.matchAll(
          /^fieldwork_grpc_server_requests_total\{[^}]*method="\/fieldwork\.results[^"]*\/GetResults"[^}]*\} (\d+)/gm,
        ),
      ].reduce((n, m) => n + Number(m[1]), 0);
    };
    const before = await calls();
    expect(await api('POST', `project/${pid}/results/`, { token: collector.access, body: {} })).toMatchObject({
      status: 403,
    });
    expect(await calls()).toBe(before);
    // The researcher's read reaches it.
    expect((await api('POST', `project/${pid}/results/`, { token: researcher.session.access, body: {} })).status).toBe(
      200,
    );
    expect(await calls()).toBe(before + 1);
  });

  it('never uses a grant forged, signed with another key, or made for another caller, sent straight to a service', async () => {
    const secret = t.stack.children.get('gateway')!.env.CONTEXT_SIGNING_SECRET!;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    // A member of the workspace with no role in the project.
    expect(
      (
        await api('POST', 'api/v1/organization-user/', {
          token: owner.access,
          body: { email: 'grant.outsider@example.org', password: 'grant pass 12', organization: owner.organization.id },
        })
      ).status,
    ).toBe(200);
    await acceptInvitation(t, api, 'grant.outsider@example.org', 'grant pass 12');
    const outsider = await login(api, 'grant.outsider@example.org', 'grant pass 12');
    expect(outsider.user.id).toBeGreaterThan(0);
    const caller = common.Caller.fromPartial({ user_id: outsider.user.id, organization_id: owner.organization.id });
    const everything = projects.ProjectAccess.fromPartial({
      project_id: pid,
      organization_id: owner.organization.id,
      screens: ['home', 'results', 'dataManager', 'form', 'export'],
      actions: ['collect', 'edit', 'delete'],
    });
    const service = createClient(responses.ResponsesServiceClient, `127.0.0.1:${t.ports.responses}`, { secret });
    const getOne = (grant: string) =>
      service.getOne(
        { caller, project_id: pid, response_id: responseId },
        { requestId: 'forged', headers: { [GRANT_KEY]: grant } },
      );
    try {
      // Signed with another key; signed right but for another caller; tampered; garbage.
      const forged = [
        signGrant('not-the-deployment-secret-but-32-characters', caller, everything, Date.now()),
        signGrant(secret, { ...caller, user_id: owner.user.id }, everything, Date.now()),
        `${signGrant(secret, caller, projects.ProjectAccess.fromPartial({ project_id: pid }), Date.now()).split('.')[0]}.${signGrant(secret, caller, everything, Date.now()).split('.')[1]}`,
        'garbage',
      ];
      for (const grant of forged)
        await expect(getOne(grant)).rejects.toMatchObject({ code: expect.stringMatching(/^40[134]/) });
      // The same caller with a grant the gateway's key signed is served: the refusals above are the grant's doing.
      await expect(getOne(signGrant(secret, caller, everything, Date.now()))).resolves.toMatchObject({
        response_id: responseId,
      });
      // Expired: decided 16 s ago.
      await expect(getOne(signGrant(secret, caller, everything, Date.now() - 16_000))).rejects.toMatchObject({
        code: expect.stringMatching(/^40[134]/),
      });
    } finally {
      service.close();
    }
  });

  it('refuses, in every service, a call not sealed with the deployment secret: none, another key, another caller or method, expired', async () => {
    const secret = t.contextSecret;
    const caller = common.Caller.fromPartial({ user_id: owner.user.id, organization_id: owner.organization.id });
    const request = { caller, project_id: pid, response_id: responseId };
    const method = '/fieldwork.responses.v1.ResponsesService/GetOne';
    // A client without the secret, as anything that reaches the port but is not one of ours: the owner's own
    // identity in the message is not taken on its word.
    const unsealed = createClient(responses.ResponsesServiceClient, `127.0.0.1:${t.ports.responses}`);
    const asIs = createClient(responses.ResponsesServiceClient, `127.0.0.1:${t.ports.responses}`);
    const others = {
      auth: createClient(auth.AuthServiceClient, `127.0.0.1:${t.ports.auth}`),
      projects: createClient(projects.ProjectsServiceClient, `127.0.0.1:${t.ports.projects}`),
      forms: createClient(forms.FormsServiceClient, `127.0.0.1:${t.ports.forms}`),
      results: createClient(results.ResultsServiceClient, `127.0.0.1:${t.ports.results}`),
      exports: createClient(exports_.ExportsServiceClient, `127.0.0.1:${t.ports.exports}`),
    };
    const refused = { code: '401.1' };
    try {
      await expect(unsealed.getOne(request, { requestId: 'unsealed' })).rejects.toMatchObject(refused);
      const withSeal = (seal: string) =>
        asIs.getOne(request, { requestId: 'sealed', headers: { [CALL_SEAL_KEY]: seal } });
      const forged = [
        sealCall('not-the-deployment-secret-but-32-characters', method, request),
        sealCall(secret, method, { ...request, caller: { ...caller, user_id: caller.user_id + 1 } }),
        sealCall(secret, '/fieldwork.responses.v1.ResponsesService/ExportPage', request),
        sealCall(secret, method, request, Date.now() - 61_000),
        `${Date.now() + 3_600_000}.${sealCall(secret, method, request).split('.')[1]}`,
        'garbage',
      ];
      for (const seal of forged) await expect(withSeal(seal)).rejects.toMatchObject(refused);
      // Internal methods that name no caller are refused too (an export's pages, a form's whole document).
      await expect(
        unsealed.exportPage({
          project_id: pid,
          schema_id: 0,
          after_id: 0,
          limit: 10,
          profile: '',
          with_repeats: false,
        }),
      ).rejects.toMatchObject(refused);
      await expect(others.forms.getSchemaInternal({ schema_id: 1 })).rejects.toMatchObject(refused);
      await expect(
        others.auth.adminSetFeatures({ organization_id: owner.organization.id, enable: ['ingestion'], disable: [] }),
      ).rejects.toMatchObject(refused);
      await expect(others.projects.getAccess({ caller, project_id: pid })).rejects.toMatchObject(refused);
      await expect(others.results.ingestStatus({ project_id: pid })).rejects.toMatchObject(refused);
      await expect(others.exports.getJob({ caller, job_id: 'x' })).rejects.toMatchObject(refused);
      // The same call sealed with the secret is served: the refusals are the seal's doing.
      await expect(withSeal(sealCall(secret, method, request))).resolves.toMatchObject({ response_id: responseId });
    } finally {
      unsealed.close();
      asIs.close();
      for (const c of Object.values(others)) c.close();
    }
  });
});
