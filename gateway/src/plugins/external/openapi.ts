// The OpenAPI document, built from each route's schemas, at /api/docs/json.
import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';

interface RequestBody {
  required?: boolean;
  content?: Record<string, { schema?: { nullable?: boolean } }>;
}

export default fp(
  async (app) => {
    await app.register(swagger, {
      // Shared schemas become components named by their $id (User, Project, ...), not def-0, def-1: the web app's
      // generated types (web/src/api/schema.d.ts) read components["schemas"]["Project"].
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
      // @fastify/swagger marks every request body required; one whose schema takes null (body() and noBody in
      // schemas/common.ts: Fastify checks a missing body as null) may be left out, and the document says so.
      transformObject: (document) => {
        if (!('openapiObject' in document)) return document.swaggerObject;
        const { openapiObject } = document;
        for (const ops of Object.values(openapiObject.paths ?? {})) {
          for (const op of Object.values(ops ?? {})) {
            const body = (op as { requestBody?: RequestBody } | undefined)?.requestBody;
            const media = Object.values(body?.content ?? {});
            if (body && media.length > 0 && media.every((m) => m.schema?.nullable === true)) body.required = false;
          }
        }
        return openapiObject;
      },
      openapi: {
        info: {
          title: 'Fieldwork API',
          version: '0.1.0',
          description: 'REST calls of the Fieldwork specification, base path /api/.',
        },
        components: {
          securitySchemes: {
            jwt: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'JWT <access token>' },
          },
        },
      },
    });
    app.get('/api/docs/json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
