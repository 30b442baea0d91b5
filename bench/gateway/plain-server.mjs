// The baseline: a plain Fastify route answering a user-sized JSON object, no auth, no gRPC.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = {
  id: 1,
  name: 'Demo User',
  first_name: 'Demo',
  last_name: 'User',
  username: 'demo',
  email: 'demo@example.com',
  groups: [],
  is_staff: false,
  is_superuser: false,
  is_mobilemanager: false,
  last_login: new Date().toISOString(),
  time_created: new Date().toISOString(),
  organizations: [{ id: 1, name: 'Demo Workspace' }],
  current_organization: 1,
  settings: {
    agreed_terms: '1.1',
    agreed_privacy: '1.0',
    account_activation_date: new Date().toISOString(),
    lifetime_datapoints: 0,
    lifetime_hours: 0,
  },
};
app.get('/plain', async () => body);
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0) });
process.stdout.write(`listening ${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
