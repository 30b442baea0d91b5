import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { common, projects } from '@fieldwork/proto';
import { grantOf, GRANT_KEY } from '@fieldwork/service-kit';
import { Metadata } from '@grpc/grpc-js';
import { AccessGrants, accessChangedBy } from './access.js';

const secret = 'the-context-signing-secret-of-this-test!';
const caller = (user_id: number) => common.Caller.fromPartial({ user_id, organization_id: 1 });
const request = {} as FastifyRequest;

describe('access grants at the gateway', () => {
  it('asks once per caller and project, signs what it was told, and drops by project or all', async () => {
    const asked: string[] = [];
    const grants = new AccessGrants(secret, async (c, projectId) => {
      asked.push(`${c.user_id}:${projectId}`);
      if (projectId === 99) throw new Error('403');
      return projects.ProjectAccess.fromPartial({ project_id: projectId, screens: ['results'] });
    });
    const first = await grants.decide(caller(1), 10, request);
    const token = 'access' in first ? first.token : undefined;
    await grants.decide(caller(1), 10, request);
    await grants.decide(caller(2), 10, request);
    await grants.decide(caller(1), 11, request);
    expect(asked).toEqual(['1:10', '2:10', '1:11']);
    const md = new Metadata();
    md.set(GRANT_KEY, token!);
    expect(grantOf(secret, md, caller(1), 10)?.screens).toEqual(['results']);
    // Refused: no grant, nothing kept (asked again next time).
    expect(await grants.decide(caller(1), 99, request)).toEqual({ error: expect.any(Error) });
    expect(await grants.decide(caller(1), 99, request)).toEqual({ error: expect.any(Error) });
    expect(asked.filter((a) => a === '1:99')).toHaveLength(2);
    grants.drop(10);
    expect(grants.size).toBe(1);
    await grants.decide(caller(1), 10, request);
    expect(asked.at(-1)).toBe('1:10');
    grants.drop(0);
    expect(grants.size).toBe(0);
  });

  it('drops grants after requests that may change access, never after reads, uploads or results', () => {
    expect(accessChangedBy('PUT', '/api/project/:id/users/:userId/', '12')).toEqual({ project: 12 });
    expect(accessChangedBy('POST', '/api/project/:id/status/', '12')).toEqual({ project: 12 });
    expect(accessChangedBy('DELETE', '/api/project/:id/sites/:sub/', '12')).toEqual({ project: 12 });
    expect(accessChangedBy('POST', '/api/project/:id/references/', '12')).toEqual({ project: 12 });
    // An import may set the hierarchy (XLSForm repeats), which the grant carries.
    expect(accessChangedBy('POST', '/api/project/:id/create-form-from-upload/', '12')).toEqual({ project: 12 });
    expect(accessChangedBy('POST', '/api/api/v1/project-user/', undefined)).toEqual({ project: 0 });
    expect(accessChangedBy('DELETE', '/api/organization/:id/organization-users/:userId/', '3')).toEqual({ project: 0 });
    for (const [method, url] of [
      ['GET', '/api/project/:id/users/'],
      ['POST', '/api/project/:id/response/'],
      ['POST', '/api/project/:id/media/'],
      ['POST', '/api/project/:id/results/schema/:schemaId/'],
      ['POST', '/api/project/:id/export/'],
      ['PUT', '/api/samplerschema/:id/'],
      ['POST', '/api/api-token-auth/'],
      ['POST', '/api/collect/:token/'],
      ['POST', '/api/project/'],
    ] as const)
      expect(accessChangedBy(method, url, '12'), `${method} ${url}`).toBeUndefined();
  });
});
