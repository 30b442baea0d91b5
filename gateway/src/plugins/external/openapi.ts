// The OpenAPI document, built from each route's schemas, at /api/docs/json.
import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    await app.register(swagger, {
      // Shared schemas become components named by their $id (User, Project, ...), not def-0, def-1: the web app's
      // generated types (web/src/api/schema.d.ts) read components["schemas"]["Project"].
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
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
