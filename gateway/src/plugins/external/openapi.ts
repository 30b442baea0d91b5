// The OpenAPI document, built from each route's schemas, at /api/docs/json.
import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Fieldwork API', version: '0.1.0', description: 'REST calls of the Fieldwork specification, base path /api/.' },
        components: {
          securitySchemes: { jwt: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'JWT <access token>' } },
        },
      },
    });
    app.get('/api/docs/json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
