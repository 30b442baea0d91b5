// Collection links (issue 19) through app.inject with fake services: the kinds and settings a link is made with,
// null and absent fields (never a 500), ending a link (expire, revoke) and who may, and what opening a link answers
// for a link without an expiry date or one that asks respondents to log in.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { projects } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { buildTestGateway } from '../testing/inject.js';

const t = await buildTestGateway();
afterAll(() => t.close());
beforeEach(() => t.reset());

const anonymous = projects.Survey.fromPartial({
  id: 9,
  project: 7,
  token: 'tok-0123456789',
  expiry_date: '',
  kind: 'anonymous',
  name: 'Market day',
  proceed_unauthenticated: true,
  revoked_at: '',
  site: 0,
});

const make = (payload: unknown) =>
  t.inject({
    method: 'POST',
    url: '/api/project/7/surveys/',
    headers: { ...t.as('owner'), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

describe('POST /api/project/{id}/surveys/', () => {
  it('makes an anonymous link with its settings; one without an expiry date answers expiry_date null', async () => {
    t.answer('projects', 'createSurvey', anonymous);
    const res = await make({ kind: 'anonymous', name: 'Market day', proceed_unauthenticated: false, site: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      id: 9,
      kind: 'anonymous',
      name: 'Market day',
      expiry_date: null,
      revoked_at: null,
      site: null,
      proceed_unauthenticated: true,
    });
    expect(t.serviceCalls()[0]?.req).toMatchObject({
      project_id: 7,
      kind: 'anonymous',
      name: 'Market day',
      expiry_date: '',
      site: 3,
      proceed_unauthenticated: false,
      proceed_unauthenticated_given: true,
    });
  });

  it('reads null and absent fields, and no body at all, as not given (the service decides): never a 500', async () => {
    const notGiven = { expiry_date: '', site: 0, kind: '', name: '', proceed_unauthenticated_given: false };
    for (const payload of [
      { expiry_date: null, site: null, kind: null, name: null, proceed_unauthenticated: null },
      {},
      null,
    ]) {
      t.reset();
      t.answer('projects', 'createSurvey', anonymous);
      const res = await make(payload);
      expect([JSON.stringify(payload), res.statusCode]).toEqual([JSON.stringify(payload), 201]);
      expect(t.serviceCalls()[0]?.req).toMatchObject(notGiven);
    }
    // The service's refusal of a survey link without an expiry date reaches the client as it is.
    t.reset();
    t.answer('projects', 'createSurvey', () => {
      throw problems.invalidFields({ expiry_date: ['A survey link needs an expiry date.'] });
    });
    const refused = await make({ expiry_date: null });
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      { expiry_date: ['A survey link needs an expiry date.'] },
    ]);
  });

  it('refuses values of the wrong type or size with 400 naming the field, before the service', async () => {
    for (const [payload, field] of [
      [{ kind: 5 }, 'kind'],
      [{ kind: 'x'.repeat(21) }, 'kind'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: ['a'] }, 'name'],
      [{ proceed_unauthenticated: 'yes' }, 'proceed_unauthenticated'],
      [{ expiry_date: 20990101 }, 'expiry_date'],
      [{ site: 'north' }, 'site'],
    ] as const) {
      const res = await make(payload);
      expect([JSON.stringify(payload), res.statusCode]).toEqual([JSON.stringify(payload), 400]);
      expect(Object.keys(res.json() as object)).toEqual([field]);
    }
    expect(t.serviceCalls()).toEqual([]);
  });
});

describe('POST /api/project/{id}/surveys/{surveyId}/expire/', () => {
  it('ends the link through the projects service and answers it', async () => {
    t.answer('projects', 'expireSurvey', { ...anonymous, expiry_date: '2026-11-26T09:00:00.000Z', expired: true });
    const res = await t.inject({ method: 'POST', url: '/api/project/7/surveys/9/expire/', headers: t.as('owner') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 9, expired: true, expiry_date: '2026-11-26T09:00:00.000Z' });
    expect(t.serviceCalls().map((c) => [c.method, c.req.project_id, c.req.survey_id])).toEqual([
      ['expireSurvey', 7, 9],
    ]);
  });

  it('a link id that cannot be one: 404 without asking; the service’s 404 (another project’s link) passes on', async () => {
    const bad = await t.inject({ method: 'POST', url: '/api/project/7/surveys/x/expire/', headers: t.as('owner') });
    expect(bad.statusCode).toBe(404);
    expect(t.serviceCalls()).toEqual([]);
    t.answer('projects', 'expireSurvey', () => {
      throw problems.notFound();
    });
    const other = await t.inject({ method: 'POST', url: '/api/project/7/surveys/99/expire/', headers: t.as('owner') });
    expect([other.statusCode, other.json()]).toEqual([404, { detail: 'Not found.' }]);
  });

  it('only those who set the project up may end a link (parameters screen)', async () => {
    const { status, leaked } = await t.byRole({ method: 'POST', url: '/api/project/7/surveys/9/expire/' }, () =>
      t.answer('projects', 'expireSurvey', anonymous),
    );
    expect(leaked).toEqual([]);
    expect(status).toMatchObject({
      owner: 200,
      wsProjectAdmin: 200,
      projectOwner: 200,
      projectAdmin: 200,
      staff: 200,
      researcher: 403,
      collector: 403,
      dataManager: 403,
      staffAdmin: 403,
      guest: 403,
    });
  });
});

describe('opening a link', () => {
  const token = projects.CollectionToken.fromPartial({
    survey_id: 9,
    project_id: 7,
    expiry_date: '',
    project: { id: 7, name: 'Census' },
    proceed_unauthenticated: true,
  });

  it('a link without an expiry date: expiry_date null and a collection token that works', async () => {
    t.answer('projects', 'resolveCollectionToken', token);
    const res = await t.inject({
      method: 'POST',
      url: '/api/collect/tok-0123456789/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token: null, email: null, fingerprint: null }),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ token: string; expiry_date: unknown }>();
    expect(body).toMatchObject({ proceed_unauthenticated: true, expiry_date: null, project_details: { id: 7 } });
    // The token lasts at most 30 days, however long the link.
    const claims = JSON.parse(Buffer.from(body.token.split('.')[1]!, 'base64url').toString()) as {
      exp: number;
      iat: number;
    };
    expect(claims.exp - claims.iat).toBe(30 * 24 * 3600);
  });

  it('a link that asks respondents to log in gives no collection token', async () => {
    t.answer('projects', 'resolveCollectionToken', { ...token, proceed_unauthenticated: false });
    const res = await t.inject({ url: '/api/collect/survey/tok-0123456789/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ proceed_unauthenticated: false, token: '', project_details: { id: 7 } });
  });

  it('a revoked or expired link answers the spec’s message "This link has expired."', async () => {
    t.answer('projects', 'resolveCollectionToken', { ...token, expired: true });
    for (const req of [
      { method: 'POST' as const, url: '/api/collect/tok-0123456789/', payload: {} },
      { method: 'GET' as const, url: '/api/collect/survey/tok-0123456789/' },
    ]) {
      const res = await t.inject(req);
      expect([res.statusCode, res.json()]).toEqual([400, { non_field_errors: ['This link has expired.'] }]);
    }
  });
});
