// Collection links (CollectionService, as the gRPC handlers call it) on a real PostgreSQL with the real auth service
// (the audit log) and projects service: the two kinds of link and their settings, ending a link (expire, revoke) and
// its audit, and a link's token used on another project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, common, forms, projects, responses, results } from '@fieldwork/proto';
import { createClient, createLogger, createObjectStore } from '@fieldwork/service-kit';
import { loadProjectsConfig } from '../src/config.js';
import { AccessResolver } from '../src/service/access.js';
import { CollectionService } from '../src/service/collection.service.js';
import type { ProjectsDeps } from '../src/service/deps.js';
import { ProjectService } from '../src/service/project.service.js';
import { ProjectUserService } from '../src/service/project-user.service.js';
import { acceptInvitation, migratedPool, newOwner, newProject, startPeers, type Peers } from './support/peers.js';

let peers: Peers;
let deps: ProjectsDeps;
let service: ProjectService;
let links: CollectionService;
let users: ProjectUserService;
const ctx = { requestId: 'collection-service-test' };
const FUTURE = '2099-01-01T00:00:00.000Z';

beforeAll(async () => {
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadProjectsConfig(peers.env('projects'));
  deps = {
    sql: await migratedPool(peers, 'projects'),
    log: createLogger('collection-service-test', 'silent'),
    auth: createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret }),
    forms: createClient(forms.FormsServiceClient, peers.address('forms'), { secret: peers.contextSecret }),
    responses: createClient(responses.ResponsesServiceClient, peers.address('responses'), {
      secret: peers.contextSecret,
    }),
    results: createClient(results.ResultsServiceClient, peers.address('results'), { secret: peers.contextSecret }),
    files: createObjectStore(config),
  };
  const access = new AccessResolver(deps.sql, deps.auth);
  service = new ProjectService(deps, access);
  links = new CollectionService(deps, access, service);
  users = new ProjectUserService(deps, access);
});

afterAll(async () => {
  deps?.auth.close();
  deps?.forms.close();
  deps?.responses.close();
  deps?.results.close();
  await peers?.stop();
});

const create = (caller: common.Caller, projectId: number, fields: Partial<projects.CreateSurveyRequest> = {}) =>
  links.createSurvey(projects.CreateSurveyRequest.fromPartial({ caller, project_id: projectId, ...fields }), ctx);

/** The workspace's audit events of one kind, newest first, as its owner reads them. */
const audited = async (owner: common.Caller, event: string) =>
  (
    await deps.auth.listAudit(
      { caller: owner, organization_id: owner.organization_id, event, page: 1, page_size: 50 },
      ctx,
    )
  ).results;

describe(CollectionService.name, () => {
  describe('createSurvey', () => {
    it('makes an anonymous link that never expires and may ask respondents to log in, and a survey link by default', async () => {
      const { caller } = await newOwner(peers);
      const p = await newProject(peers, caller);
      const anon = await create(caller, p.id, {
        kind: 'anonymous',
        name: '  Market day ',
        proceed_unauthenticated: false,
        proceed_unauthenticated_given: true,
        site: p.sites[0]!.id,
      });
      expect(anon).toMatchObject({
        project: p.id,
        kind: 'anonymous',
        name: 'Market day',
        expiry_date: '',
        expired: false,
        proceed_unauthenticated: false,
        site: p.sites[0]!.id,
      });
      expect(anon.token).toMatch(/^[\w-]{24}$/);
      const opened = await links.resolveToken({ token: anon.token });
      expect(opened).toMatchObject({
        project_id: p.id,
        expiry_date: '',
        expired: false,
        proceed_unauthenticated: false,
      });

      // The spec's call {expiry_date}: a survey link, answered without logging in (whatever it says).
      const survey = await create(caller, p.id, {
        expiry_date: FUTURE,
        proceed_unauthenticated: false,
        proceed_unauthenticated_given: true,
      });
      expect(survey).toMatchObject({ kind: 'survey', name: '', expiry_date: FUTURE, proceed_unauthenticated: true });
      expect((await links.listSurveys({ caller, project_id: p.id }, ctx)).results.map((s) => s.id)).toEqual([
        survey.id,
        anon.id,
      ]);
    });

    it('refuses a survey link without an expiry date, a past date, an unknown kind and a site of another project', async () => {
      const { caller } = await newOwner(peers);
      const p = await newProject(peers, caller);
      const other = await newProject(peers, caller, 'Other');
      const refusal = (fields: Partial<projects.CreateSurveyRequest>) =>
        create(caller, p.id, fields).then(
          () => 'made',
          (err: Error & { code?: string; fields?: unknown }) => [err.code, err.fields ?? err.message],
        );
      const fieldCode = '400.1';
      expect(await refusal({ expiry_date: '' })).toEqual([
        fieldCode,
        { expiry_date: ['A survey link needs an expiry date.'] },
      ]);
      expect(await refusal({ kind: 'anonymous', expiry_date: '2001-01-01T00:00:00Z' })).toEqual([
        fieldCode,
        { expiry_date: ['The expiry date must be in the future.'] },
      ]);
      expect(await refusal({ kind: 'public', expiry_date: FUTURE })).toEqual([
        fieldCode,
        { kind: ['Choose anonymous or survey.'] },
      ]);
      expect(await refusal({ expiry_date: FUTURE, site: other.sites[0]!.id })).toEqual([
        fieldCode,
        { site: ['Invalid Project or Site Id!'] },
      ]);
      expect((await links.listSurveys({ caller, project_id: p.id }, ctx)).results).toEqual([]);
    });
  });

  describe('expireSurvey and revokeSurvey', () => {
    it('end a link at once ("This link has expired." from then on), each recorded once in the audit log', async () => {
      const { caller } = await newOwner(peers);
      const p = await newProject(peers, caller);
      const anon = await create(caller, p.id, { kind: 'anonymous', name: 'Door' });
      const survey = await create(caller, p.id, { expiry_date: FUTURE });

      const expired = await links.expireSurvey({ caller, project_id: p.id, survey_id: anon.id }, ctx);
      expect(expired).toMatchObject({ id: anon.id, expired: true, revoked_at: '' });
      expect(Date.parse(expired.expiry_date)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(expired.expiry_date)).toBeGreaterThan(Date.now() - 60_000);
      expect(await links.resolveToken({ token: anon.token })).toMatchObject({ expired: true });
      // Expiring again keeps the time it ended.
      const again = await links.expireSurvey({ caller, project_id: p.id, survey_id: anon.id }, ctx);
      expect(again.expiry_date).toBe(expired.expiry_date);

      const revoked = await links.revokeSurvey({ caller, project_id: p.id, survey_id: survey.id }, ctx);
      expect(revoked).toMatchObject({ id: survey.id, expired: true, expiry_date: FUTURE });
      expect(revoked.revoked_at).not.toBe('');
      expect(await links.resolveToken({ token: survey.token })).toMatchObject({ expired: true });
      const twice = await links.revokeSurvey({ caller, project_id: p.id, survey_id: survey.id }, ctx);
      expect(twice.revoked_at).toBe(revoked.revoked_at);

      expect((await audited(caller, 'collection_link_created')).map((e) => e.target)).toEqual([
        `project ${p.id} link ${survey.id}`,
        `project ${p.id} link ${anon.id}`,
      ]);
      const [expiredEvent, ...moreExpired] = await audited(caller, 'collection_link_expired');
      expect(moreExpired).toEqual([]);
      expect(expiredEvent).toMatchObject({ actor_user_id: caller.user_id, target: `project ${p.id} link ${anon.id}` });
      expect(JSON.parse(expiredEvent!.details_json)).toEqual({
        kind: 'anonymous',
        name: 'Door',
        expiry_date: expired.expiry_date,
        site: null,
      });
      const revokedEvents = await audited(caller, 'collection_link_revoked');
      expect(revokedEvents.map((e) => e.target)).toEqual([`project ${p.id} link ${survey.id}`]);
      // Never the token: it is the respondents' credential.
      for (const e of [...revokedEvents, expiredEvent!]) expect(JSON.stringify(e)).not.toContain(survey.token);
    });

    it("answer 404 for another project's link and leave it working; refuse those who do not set the project up", async () => {
      const { caller } = await newOwner(peers);
      const p = await newProject(peers, caller);
      const other = await newProject(peers, caller, 'Other');
      const theirs = await create(caller, other.id, { expiry_date: FUTURE });
      for (const end of [links.expireSurvey.bind(links), links.revokeSurvey.bind(links)]) {
        await expect(end({ caller, project_id: p.id, survey_id: theirs.id }, ctx)).rejects.toMatchObject({
          code: '404.1',
        });
      }
      expect(await links.resolveToken({ token: theirs.token })).toMatchObject({ expired: false });

      const added = await users.add(
        projects.AddProjectUserRequest.fromPartial({
          caller,
          project_id: other.id,
          email: `collector.links.${peers.infra.runId}@example.org`,
          first_name: 'Cleo',
          last_name: 'Collector',
          password: 'correct horse 42',
          roles: { collector: true },
        }),
        ctx,
      );
      await acceptInvitation(peers, added.email);
      const collector = common.Caller.fromPartial({ user_id: added.user_id, organization_id: caller.organization_id });
      for (const call of [
        () => create(collector, other.id, { expiry_date: FUTURE }),
        () => links.expireSurvey({ caller: collector, project_id: other.id, survey_id: theirs.id }, ctx),
        () => links.revokeSurvey({ caller: collector, project_id: other.id, survey_id: theirs.id }, ctx),
      ]) {
        await expect(call()).rejects.toMatchObject({ code: '403.1', message: "You don't have access to this item." });
      }
      expect(await links.resolveToken({ token: theirs.token })).toMatchObject({ expired: false });
    });
  });

  describe("a link's respondent", () => {
    it('may collect in the link\'s project only: another project is "Invalid Project Id!", an ended link "This link has expired."', async () => {
      const { caller } = await newOwner(peers);
      const p = await newProject(peers, caller);
      const other = await newProject(peers, caller, 'Other');
      const link = await create(caller, p.id, { kind: 'anonymous' });
      const respondent = common.Caller.fromPartial({ collect_project_id: p.id, collect_survey_id: link.id });
      expect(await service.getAccess({ caller: respondent, project_id: p.id }, ctx)).toMatchObject({
        project_id: p.id,
        actions: ['collect'],
      });
      await expect(service.getAccess({ caller: respondent, project_id: other.id }, ctx)).rejects.toMatchObject({
        code: '404.4',
        message: 'Invalid Project Id!',
      });
      // A token naming the other project with this project's link: the link is not that project's.
      const forged = common.Caller.fromPartial({ collect_project_id: other.id, collect_survey_id: link.id });
      await expect(service.getAccess({ caller: forged, project_id: other.id }, ctx)).rejects.toMatchObject({
        message: 'This link has expired.',
      });
      await links.revokeSurvey({ caller, project_id: p.id, survey_id: link.id }, ctx);
      await expect(service.getAccess({ caller: respondent, project_id: p.id }, ctx)).rejects.toMatchObject({
        message: 'This link has expired.',
      });
    });
  });
});
