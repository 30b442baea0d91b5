// The projects service's use cases (ProjectService, ProjectUserService, StructureService, as the gRPC handlers call
// them) on a real PostgreSQL, with the real auth, forms and responses services it calls: creating a project with its
// default structure and form, the access it answers for each role, and its refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, common, forms, projects, responses, results } from '@fieldwork/proto';
import { createClient, createLogger, createObjectStore } from '@fieldwork/service-kit';
import { loadProjectsConfig } from '../src/config.js';
import { AccessResolver } from '../src/service/access.js';
import type { ProjectsDeps } from '../src/service/deps.js';
import { AdvancedResultService } from '../src/service/advanced-result.service.js';
import { ProjectService } from '../src/service/project.service.js';
import { ProjectUserService } from '../src/service/project-user.service.js';
import { StructureService } from '../src/service/structure.service.js';
import {
  acceptInvitation,
  migratedPool,
  newOwner,
  newProject,
  newUser,
  startPeers,
  type Peers,
} from './support/peers.js';

let peers: Peers;
let deps: ProjectsDeps;
let service: ProjectService;
let users: ProjectUserService;
let structure: StructureService;
let advanced: AdvancedResultService;
const ctx = { requestId: 'projects-service-test' };

beforeAll(async () => {
  // The projects service is served too: forms and responses ask it for access when called.
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadProjectsConfig(peers.env('projects'));
  deps = {
    sql: await migratedPool(peers, 'projects'),
    log: createLogger('projects-service-test', 'silent'),
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
  users = new ProjectUserService(deps, access);
  structure = new StructureService(deps, access);
  advanced = new AdvancedResultService(deps, access);
});

afterAll(async () => {
  deps?.auth.close();
  deps?.forms.close();
  deps?.responses.close();
  deps?.results.close();
  await peers?.stop();
});

const createRequest = (caller: common.Caller, fields: Partial<projects.CreateProjectRequest> = {}) =>
  projects.CreateProjectRequest.fromPartial({
    caller,
    organization_pk: caller.organization_id,
    name: 'Water Points',
    frontend_color: '1e88e5',
    frontend_icon: 'place',
    geotag: { latitude: -0.09, longitude: 34.77 },
    geotag_given: true,
    ...fields,
  });

describe(ProjectService.name, () => {
  describe('create', () => {
    it('makes the project with the creator as owner in its default site, group and team, and its first form', async () => {
      const { caller } = await newOwner(peers);
      const p = await service.create(createRequest(caller), ctx);
      expect(p.name).toBe('Water Points');
      expect(p.sites).toHaveLength(1);
      expect(p.projectuser_set).toEqual([
        expect.objectContaining({ user_id: caller.user_id, project_owner: true, site: p.sites[0]!.id }),
      ]);
      expect(p.project_hierarchy).toEqual([expect.objectContaining({ level: 0, name: 'Water Points' })]);
      // The form was made by the real forms service and is its to serve.
      const formsClient = createClient(forms.FormsServiceClient, peers.address('forms'), {
        secret: peers.contextSecret,
      });
      try {
        const list = await formsClient.listSchemas({ project_id: p.id }, { requestId: 'test' });
        expect(list.results.map((s) => s.id)).toContain(p.project_hierarchy[0]!.schema_id);
      } finally {
        formsClient.close();
      }
    });

    it('refuses a blank name and an unknown colour field by field', async () => {
      const { caller } = await newOwner(peers);
      await expect(
        service.create(createRequest(caller, { name: '  ', frontend_color: 'nocolour' }), ctx),
      ).rejects.toMatchObject({
        code: '400.1',
        fields: { name: [expect.any(String)], frontend_color: [expect.any(String)] },
      });
    });

    it('refuses a caller from outside the workspace: "Invalid Organization Id!"', async () => {
      const { caller } = await newOwner(peers);
      const stranger = await newUser(peers);
      await expect(
        service.create(createRequest({ ...stranger, organization_id: caller.organization_id }, {}), ctx),
      ).rejects.toMatchObject({ code: '404.2', message: 'Invalid Organization Id!' });
    });
  });

  describe('get', () => {
    it('answers "Invalid Project Id!" to another workspace and for a project that does not exist', async () => {
      const { caller } = await newOwner(peers);
      const other = await newOwner(peers);
      const p = await newProject(peers, caller);
      await expect(service.get({ caller: other.caller, project_id: p.id }, ctx)).rejects.toMatchObject({
        code: '404.4',
        message: 'Invalid Project Id!',
      });
      await expect(service.get({ caller, project_id: 999_999 }, ctx)).rejects.toMatchObject({ code: '404.4' });
    });

    it('refuses a call without a caller: "Authentication credentials were not provided."', async () => {
      await expect(service.get({ caller: undefined, project_id: 1 }, ctx)).rejects.toMatchObject({
        code: '401.1',
        message: 'Authentication credentials were not provided.',
      });
    });
  });

  describe('getAccess', () => {
    it("answers the owner every action and a collector only collecting, in the collector's own site", async () => {
      const { caller } = await newOwner(peers);
      const p = await newProject(peers, caller);
      const owner = await service.getAccess({ caller, project_id: p.id }, ctx);
      expect(owner.roles).toMatchObject({ project_owner: true, collector: false });
      expect(owner.actions).toEqual(expect.arrayContaining(['collect', 'editCompleted']));

      const added = await users.add(
        projects.AddProjectUserRequest.fromPartial({
          caller,
          project_id: p.id,
          email: `collector.${peers.infra.runId}@example.org`,
          first_name: 'Cleo',
          last_name: 'Collector',
          password: 'correct horse 42',
          roles: { collector: true },
        }),
        ctx,
      );
      await acceptInvitation(peers, added.email);
      const collector = common.Caller.fromPartial({ user_id: added.user_id, organization_id: caller.organization_id });
      const access = await service.getAccess({ caller: collector, project_id: p.id }, ctx);
      expect(access.roles).toMatchObject({ collector: true, project_owner: false, data_manager: false });
      expect(access.actions).toContain('collect');
      expect(access.actions).not.toContain('editCompleted');
      expect(access.collect_sites).toEqual([p.sites[0]!.id]);
    });

    it('says which screen a workspace feature that is off closes to the owner, and none once it is on', async () => {
      const { caller } = await newOwner(peers);
      const p = await newProject(peers, caller);
      const off = await service.getAccess({ caller, project_id: p.id }, ctx);
      expect(off.screens).not.toContain('projectLevelIngestion');
      expect([off.feature_off, off.feature_off_screens]).toEqual(['ingestion', ['projectLevelIngestion']]);
      await deps.auth.adminSetFeatures({ organization_id: caller.organization_id, enable: ['ingestion'], disable: [] });
      const on = await service.getAccess({ caller, project_id: p.id }, ctx);
      expect(on.screens).toContain('projectLevelIngestion');
      expect([on.feature_off, on.feature_off_screens]).toEqual(['', []]);
    });
  });
});

describe(ProjectUserService.name, () => {
  it('adds one user twice at once without a 500 (the unique key is met by the second add, which updates)', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    const add = () =>
      users.add(
        projects.AddProjectUserRequest.fromPartial({
          caller,
          project_id: p.id,
          email: `twice.${peers.infra.runId}@example.org`,
          first_name: 'Tia',
          last_name: 'Twice',
          password: 'correct horse 42',
          roles: { collector: true },
        }),
        ctx,
      );
    const again = await Promise.allSettled(Array.from({ length: 6 }, add));
    expect(again.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual(
      Array(6).fill('fulfilled'),
    );
    // Listed once the person accepted the one invitation mailed to them.
    await acceptInvitation(peers, `twice.${peers.infra.runId}@example.org`);
    const listed = await users.list(
      projects.ListProjectUsersRequest.fromPartial({ caller, project_id: p.id, page: 1 }),
      ctx,
    );
    expect(listed.results.filter((u) => u.email === `twice.${peers.infra.runId}@example.org`)).toHaveLength(1);
  });

  it('lists an added user with their roles, refuses the adding to a collector, and a removal ends their access', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    const added = await users.add(
      projects.AddProjectUserRequest.fromPartial({
        caller,
        project_id: p.id,
        email: `member.${peers.infra.runId}@example.org`,
        first_name: 'Mo',
        last_name: 'Member',
        password: 'correct horse 42',
        roles: { collector: true },
      }),
      ctx,
    );
    await acceptInvitation(peers, added.email);
    const listed = await users.list(projects.ListProjectUsersRequest.fromPartial({ caller, project_id: p.id }), ctx);
    expect(listed.results.map((u) => [u.user_id, u.project_owner, u.collector])).toEqual(
      expect.arrayContaining([
        [caller.user_id, true, false],
        [added.user_id, false, true],
      ]),
    );
    const member = common.Caller.fromPartial({ user_id: added.user_id, organization_id: caller.organization_id });
    await expect(
      users.add(
        projects.AddProjectUserRequest.fromPartial({
          caller: member,
          project_id: p.id,
          email: `friend.${peers.infra.runId}@example.org`,
          first_name: 'Fi',
          last_name: 'Friend',
          password: 'correct horse 42',
          roles: { collector: true },
        }),
        ctx,
      ),
    ).rejects.toMatchObject({ code: '403.1' });

    await users.remove({ caller, project_id: p.id, user_id: added.user_id }, ctx);
    await expect(service.getAccess({ caller: member, project_id: p.id }, ctx)).rejects.toMatchObject({
      code: '404.4',
      message: 'Invalid Project Id!',
    });
  });
});

describe(StructureService.name, () => {
  it('lets the owner add a site and refuses it to a collector: "You don\'t have access to this item."', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    const site = await structure.createSite(
      projects.SiteRequest.fromPartial({
        caller,
        project_id: p.id,
        name: 'North',
        geotag: { latitude: 1, longitude: 2 },
      }),
      ctx,
    );
    expect(site.name).toBe('North');
    expect((await service.get({ caller, project_id: p.id }, ctx)).sites.map((s) => s.name)).toEqual(
      expect.arrayContaining(['North']),
    );

    const added = await users.add(
      projects.AddProjectUserRequest.fromPartial({
        caller,
        project_id: p.id,
        email: `site.collector.${peers.infra.runId}@example.org`,
        first_name: 'Sam',
        last_name: 'Collector',
        password: 'correct horse 42',
        roles: { collector: true },
      }),
      ctx,
    );
    await acceptInvitation(peers, added.email);
    const collector = common.Caller.fromPartial({ user_id: added.user_id, organization_id: caller.organization_id });
    await expect(
      structure.createSite(
        projects.SiteRequest.fromPartial({
          caller: collector,
          project_id: p.id,
          name: 'South',
          geotag: { latitude: 1, longitude: 2 },
        }),
        ctx,
      ),
    ).rejects.toMatchObject({ code: '403.1', message: "You don't have access to this item." });
  });

  it('renames a site, moves its geotag, renames groups and teams; refuses a bad geotag and the Default name (spec 000 §5)', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    const site = await structure.createSite(
      projects.SiteRequest.fromPartial({
        caller,
        project_id: p.id,
        name: 'North',
        geotag: { latitude: 1, longitude: 2 },
      }),
      ctx,
    );
    const renamed = await structure.updateSite(
      projects.SiteRequest.fromPartial({
        caller,
        project_id: p.id,
        site_id: site.id,
        name: '  North Ridge ',
        geotag_given: true,
        geotag: { latitude: -33.9, longitude: 18.4 },
      }),
      ctx,
    );
    expect([renamed.name, renamed.geotag]).toEqual(['North Ridge', { latitude: -33.9, longitude: 18.4 }]);

    // A geotag out of range, or absent when one is given, is refused with the spec's message; nothing changes.
    for (const geotag of [{ latitude: 91, longitude: 0 }, { latitude: 0, longitude: -180.5 }, undefined]) {
      await expect(
        structure.updateSite(
          projects.SiteRequest.fromPartial({ caller, project_id: p.id, site_id: site.id, geotag_given: true, geotag }),
          ctx,
        ),
      ).rejects.toMatchObject({ code: '400.1', fields: { geotag: ['Need Valid Geotag'] } });
    }
    await expect(
      structure.createSite(projects.SiteRequest.fromPartial({ caller, project_id: p.id, name: 'West' }), ctx),
    ).rejects.toMatchObject({ code: '400.1', fields: { geotag: ['Need Valid Geotag'] } });

    // "Default" names the default site only: no other site is created or renamed so.
    const reserved = 'Default is the name of the project’s default site: choose another name.';
    for (const name of ['Default', ' default  site ', 'Old Default Site']) {
      await expect(
        structure.updateSite(
          projects.SiteRequest.fromPartial({ caller, project_id: p.id, site_id: site.id, name }),
          ctx,
        ),
      ).rejects.toMatchObject({ code: '400.1', fields: { name: [reserved] } });
      await expect(
        structure.createSite(
          projects.SiteRequest.fromPartial({ caller, project_id: p.id, name, geotag: { latitude: 1, longitude: 2 } }),
          ctx,
        ),
      ).rejects.toMatchObject({ code: '400.1', fields: { name: [reserved] } });
    }
    // A name that only contains the word elsewhere is fine, and so is the default site keeping its own name.
    const full = await service.get({ caller, project_id: p.id }, ctx);
    const defaultSite = full.sites.find((s) => s.name === 'Default Site')!;
    expect(
      (
        await structure.updateSite(
          projects.SiteRequest.fromPartial({
            caller,
            project_id: p.id,
            site_id: defaultSite.id,
            name: 'Default Site',
            date_end: '2027-01-31',
          }),
          ctx,
        )
      ).date_end,
    ).toBe('2027-01-31');
    expect(
      (
        await structure.updateSite(
          projects.SiteRequest.fromPartial({ caller, project_id: p.id, site_id: site.id, name: 'Defaulters Lane' }),
          ctx,
        )
      ).name,
    ).toBe('Defaulters Lane');

    const group = await structure.createGroup(
      projects.GroupRequest.fromPartial({ caller, project_id: p.id, name: 'Blue', site: site.id }),
      ctx,
    );
    const team = await structure.createTeam(
      projects.TeamRequest.fromPartial({ caller, project_id: p.id, name: 'One', group: group.id }),
      ctx,
    );
    expect(
      (
        await structure.updateGroup(
          projects.GroupRequest.fromPartial({ caller, project_id: p.id, group_id: group.id, name: 'Blue Ridge' }),
          ctx,
        )
      ).name,
    ).toBe('Blue Ridge');
    expect(
      (
        await structure.updateTeam(
          projects.TeamRequest.fromPartial({ caller, project_id: p.id, team_id: team.id, name: 'Team One' }),
          ctx,
        )
      ).name,
    ).toBe('Team One');
    await expect(
      structure.updateGroup(
        projects.GroupRequest.fromPartial({ caller, project_id: p.id, group_id: group.id, name: '  ' }),
        ctx,
      ),
    ).rejects.toMatchObject({ code: '400.1', fields: { name: ['This field may not be blank.'] } });
    const after = await service.get({ caller, project_id: p.id }, ctx);
    expect(after.sites.find((s) => s.id === site.id)).toMatchObject({
      name: 'Defaulters Lane',
      geotag: { latitude: -33.9, longitude: 18.4 },
    });
    expect(after.groups.find((g) => g.id === group.id)?.name).toBe('Blue Ridge');
    expect(after.teams.find((t) => t.id === team.id)?.name).toBe('Team One');
  });

  describe('advanced results', () => {
    it('saves one whose editor state is null as an empty state, and refuses a state that is not JSON', async () => {
      const { caller } = await newOwner(peers);
      const p = await newProject(peers, caller);
      const save = (editor_state_json: string) =>
        advanced.save(
          projects.SaveAdvancedResultRequest.fromPartial({
            caller,
            project_id: p.id,
            fields: { name: 'Ratio', formula: '1+1', editor_state_json },
          }),
          ctx,
        );
      const saved = await save('null');
      expect(saved.id).toBeGreaterThan(0);
      expect(JSON.parse(saved.editor_state_json)).toEqual({});
      expect(JSON.parse((await save('{"x":[1]}')).editor_state_json)).toEqual({ x: [1] });
      await expect(save('{not json')).rejects.toMatchObject({
        code: '400.1',
        fields: { editor_state: ['Send the editor state as JSON.'] },
      });
    });
  });
});
