// Surveys (collection links) and references (spec 000 §7 Projects; spec 001 §7 References).
import type { FastifyInstance } from 'fastify';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { id, projectJson, str, surveyJson } from '../wire.js';
import { projectId } from './projects.js';
import { collectionSchemas as S } from '../schemas/collection.js';
import { listOf, ref } from '../schemas/records.js';
import { apiKeyRoute, meta, parseId, secured, withSchema } from './util.js';

type Json = Record<string, unknown>;

export default async function collectionRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const opts = {
    preHandler: app.authenticate,
    config: apiKeyRoute,
    schema: { tags: ['surveys, references'], security: secured },
  };
  const p = clients.projects;
  const one = withSchema(opts, { params: S.projectParams });
  const survey = withSchema(opts, { params: S.surveyParams, response: { 200: ref('Survey') } });

  // Collection links: made, listed, expired and revoked by those who set the project up (the projects service decides).
  app.post<{ Params: { id: string }; Body: Json }>(
    '/api/project/:id/surveys/',
    withSchema(one, { body: S.survey, response: { 201: ref('Survey') } }),
    async (r, reply) => {
      const b = r.body ?? {};
      if (b.site !== undefined && b.site !== null && id(b.site) === 0)
        throw problems.invalidFields({ site: [problems.invalidSiteId().message] });
      const made = await p.createSurvey(
        {
          caller: r.caller,
          project_id: projectId(r),
          expiry_date: str(b.expiry_date),
          site: id(b.site),
          kind: str(b.kind),
          name: str(b.name),
          proceed_unauthenticated: b.proceed_unauthenticated === true,
          proceed_unauthenticated_given: typeof b.proceed_unauthenticated === 'boolean',
        },
        meta(r),
      );
      return reply.status(201).send(surveyJson(made));
    },
  );
  app.get<{ Params: { id: string } }>(
    '/api/project/:id/surveys/',
    withSchema(one, { response: { 200: listOf('Survey') } }),
    async (r) => {
      const { results } = await p.listSurveys({ caller: r.caller, project_id: projectId(r) }, meta(r));
      return { results: results.map(surveyJson), count: results.length };
    },
  );
  app.get<{ Params: { id: string; surveyId: string } }>('/api/project/:id/surveys/:surveyId/', survey, async (r) =>
    surveyJson(
      await p.getSurvey(
        { caller: r.caller, project_id: projectId(r), survey_id: parseId(r.params.surveyId, problems.notFound) },
        meta(r),
      ),
    ),
  );
  app.post<{ Params: { id: string; surveyId: string } }>(
    '/api/project/:id/surveys/:surveyId/revoke/',
    withSchema(survey, { body: S.revoke }),
    async (r) =>
      surveyJson(
        await p.revokeSurvey(
          { caller: r.caller, project_id: projectId(r), survey_id: parseId(r.params.surveyId, problems.notFound) },
          meta(r),
        ),
      ),
  );

  app.post<{ Params: { id: string; surveyId: string } }>(
    '/api/project/:id/surveys/:surveyId/expire/',
    withSchema(survey, { body: S.revoke }),
    async (r) =>
      surveyJson(
        await p.expireSurvey(
          { caller: r.caller, project_id: projectId(r), survey_id: parseId(r.params.surveyId, problems.notFound) },
          meta(r),
        ),
      ),
  );

  app.get<{ Params: { id: string } }>(
    '/api/project/:id/references/',
    withSchema(one, { response: { 200: listOf('Project') } }),
    async (r) => {
      const { results } = await p.listReferences({ caller: r.caller, project_id: projectId(r) }, meta(r));
      return { results: results.map(projectJson), count: results.length };
    },
  );
  app.post<{ Params: { id: string }; Body: Json }>(
    '/api/project/:id/references/',
    withSchema(one, { body: S.reference, response: { 200: listOf('Project') } }),
    async (r) => {
      const b = r.body ?? {};
      const { results } = await p.addReference(
        { caller: r.caller, project_id: projectId(r), reference_id: id(b.id), action: str(b.action) },
        meta(r),
      );
      return { results: results.map(projectJson), count: results.length };
    },
  );
}
