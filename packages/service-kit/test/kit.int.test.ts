import { Metadata, status, credentials, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { testInfra, freePort, type TestInfra } from '@fieldwork/launcher';
import { auth } from '@fieldwork/proto';
import {
  ConfigError,
  connectNats,
  createClient,
  createLogger,
  createPool,
  ensureStream,
  implement,
  loadConfig,
  migrate,
  moreErrorsMessage,
  Problem,
  PROBLEM_LIMITS,
  problems,
  serviceVars,
  startGrpcServer,
  vars,
  z,
  type AsyncHandlers,
  type Sql,
} from '../src/index.js';

const log = createLogger('test', 'silent');
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
let infra: TestInfra;
let sql: Sql;

beforeAll(async () => {
  infra = await testInfra();
  sql = createPool(infra.databaseUrl, { schema: 'kit_test', appName: 'kit-test' });
});
afterAll(async () => {
  await sql?.end();
  await infra?.dispose();
});

describe('migrate', () => {
  it('applies numbered files in order once, in the service schema, and records them', async () => {
    const first = await migrate(sql, { schema: 'kit_test', dir: fixture('migrations-a'), log });
    expect(first.applied).toEqual(['0001-create.sql', '0002-add.sql']);
    const again = await migrate(sql, { schema: 'kit_test', dir: fixture('migrations-a'), log });
    expect(again.applied).toEqual([]);
    const rows = await sql`select version, name from kit_test.schema_migrations order by version`;
    expect(rows.map((r) => r.name)).toEqual(['0001-create.sql', '0002-add.sql']);
    expect(await sql`select name, colour from kit_test.things`).toEqual([{ name: 'first', colour: 'green' }]);
  });

  it('rolls a failing migration back whole and says which file failed', async () => {
    const other = createPool(infra.databaseUrl, { schema: 'kit_broken', appName: 'kit-test' });
    try {
      await expect(migrate(other, { schema: 'kit_broken', dir: fixture('migrations-b'), log })).rejects.toThrow(
        /0002-broken\.sql failed/,
      );
      expect((await other`select count(*)::int as n from kit_broken.things`)[0]!.n).toBe(0);
      expect((await other`select count(*)::int as n from kit_broken.schema_migrations`)[0]!.n).toBe(1);
    } finally {
      await other.end();
    }
  });

  it('refuses to run when a recorded migration lost its file or was renamed (forward-only)', async () => {
    await expect(migrate(sql, { schema: 'kit_test', dir: fixture('migrations-c'), log })).rejects.toThrow(
      'kit_test: migration 0002-add.sql is recorded but its file is missing',
    );
    await expect(migrate(sql, { schema: 'kit_test', dir: fixture('migrations-b'), log })).rejects.toThrow(
      'kit_test: migration 2 was applied as 0002-add.sql but the file is now 0002-broken.sql',
    );
  });

  it('serialises concurrent migrators with an advisory lock', async () => {
    const pools = [0, 1, 2].map(() => createPool(infra.databaseUrl, { schema: 'kit_race', appName: 'kit-test' }));
    try {
      const results = await Promise.all(
        pools.map((p) => migrate(p, { schema: 'kit_race', dir: fixture('migrations-a'), log })),
      );
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 2]);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});

describe('loadConfig', () => {
  it('lists every missing and invalid variable at once', () => {
    const shape = { ...serviceVars, DATABASE_URL: z.url(), PORT: vars.port(1), JWT_SECRET: z.string().min(32) };
    try {
      loadConfig(shape, { PORT: 'abc', LOG_LEVEL: 'loud', JWT_SECRET: 'short' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const issues = (err as ConfigError).issues.join('\n');
      expect(issues).toMatch(/DATABASE_URL: is required but not set/);
      expect(issues).toMatch(/PORT: .*\(got "abc"\)/);
      expect(issues).toMatch(/LOG_LEVEL: .*\(got "loud"\)/);
      expect(issues).toMatch(/JWT_SECRET/);
    }
  });
  it('applies defaults and treats empty values as unset', () => {
    const c = loadConfig(
      { ...serviceVars, PORT: vars.port(7) },
      { PORT: '', EXIT_WITH_PARENT: 'yes', DATABASE_URL: 'postgres://x@h/db' },
    );
    expect(c).toMatchObject({
      PORT: 7,
      LOG_LEVEL: 'info',
      EXIT_WITH_PARENT: true,
      GRPC_HOST: '127.0.0.1',
      DB_POOL_SIZE: 10,
    });
  });
});

describe('gRPC server', () => {
  // A real AuthService definition with handlers that exercise the kit: slow calls, problems, crashes.
  function handlers(gate: Promise<void>): AsyncHandlers<auth.AuthServiceServer> {
    const refuse = async () => {
      throw problems.notFound();
    };
    const all = Object.fromEntries(Object.keys(auth.AuthServiceService).map((k) => [k, refuse]));
    return {
      ...(all as unknown as AsyncHandlers<auth.AuthServiceServer>),
      emailCheck: async (req, ctx) => {
        if (req.email === 'slow@example.com') await gate;
        if (req.email === 'bad') throw problems.invalidFields({ email: ['Enter a valid email address.'] });
        if (req.email === 'crash') throw new Error('database password is hunter2');
        // A request with thousands of bad values: 3,000 field errors (~150 kB of detail).
        if (req.email === 'many')
          throw problems.invalidFields(
            Object.fromEntries(
              Array.from({ length: 3000 }, (_, i) => [
                `data.0.${100000 + i}`,
                ['No question of this form has this id.'],
              ]),
            ),
          );
        return { email: ctx.requestId, exists: true };
      },
    };
  }

  it('passes the request id, maps problems, hides crashes, and drains in-flight calls on shutdown', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const port = await freePort();
    const impl = implement(auth.AuthServiceService, handlers(gate), log);
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port,
      services: [{ name: 'fieldwork.auth.v1.AuthService', definition: auth.AuthServiceService, implementation: impl }],
      log,
    });
    server.setServing(true);
    const client = createClient(auth.AuthServiceClient, `127.0.0.1:${port}`);
    try {
      expect((await client.emailCheck({ email: 'a@b.co' }, { requestId: 'req-12345678' })).email).toBe('req-12345678');

      const refused = await client.emailCheck({ email: 'bad' }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: '400.1', fields: { email: ['Enter a valid email address.'] } });

      const crashed = await client.emailCheck({ email: 'crash' }).catch((e: unknown) => e);
      expect(crashed).toMatchObject({ code: '500.1', message: 'Internal server error.' });
      expect(JSON.stringify(crashed)).not.toContain('hunter2');

      const raw = await new Promise<ServiceError>((resolve) =>
        client.raw.login({ username: 'x', password: 'y', client_ip: '', device: '' }, new Metadata(), (err) =>
          resolve(err!),
        ),
      );
      expect(raw.code).toBe(status.NOT_FOUND);
      expect(raw.details).toBe('Not found.');
      // The problem's detail travels in a reply message, never in the trailers.
      expect(raw.metadata.get('fw-problem')).toEqual([]);

      // In flight when shutdown starts: it finishes; a new call is refused.
      const slow = client.emailCheck({ email: 'slow@example.com' });
      await new Promise((r) => setTimeout(r, 100));
      const stopped = server.shutdown(5000);
      await new Promise((r) => setTimeout(r, 100));
      const fresh = createClient(auth.AuthServiceClient, `127.0.0.1:${port}`, { defaultTimeoutMs: 1000 });
      await expect(fresh.emailCheck({ email: 'a@b.co' })).rejects.toMatchObject({ message: expect.any(String) });
      fresh.close();
      open();
      await expect(slow).resolves.toMatchObject({ exists: true });
      await stopped;
    } finally {
      client.close();
    }
  });

  it('answers a refusal with thousands of field errors at once, bounded, without its detail in the trailers, while the channel goes on', async () => {
    const port = await freePort();
    const impl = implement(auth.AuthServiceService, handlers(Promise.resolve()), log);
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port,
      services: [{ name: 'fieldwork.auth.v1.AuthService', definition: auth.AuthServiceService, implementation: impl }],
      log,
    });
    server.setServing(true);
    const client = createClient(auth.AuthServiceClient, `127.0.0.1:${port}`, { defaultTimeoutMs: 10_000 });
    try {
      const started = Date.now();
      // Other calls on the same channel, in flight with the big refusal.
      const [refused, ...others] = await Promise.all([
        client.emailCheck({ email: 'many' }).catch((e: unknown) => e as Problem),
        ...Array.from({ length: 5 }, (_, i) =>
          client.emailCheck({ email: `ok${i}@b.co` }, { requestId: `req-ok-${i}-1234` }),
        ),
      ]);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(refused).toMatchObject({ code: '400.1' });
      const fields = (refused as Problem).fields!;
      expect(Object.keys(fields).length).toBe(PROBLEM_LIMITS.fields + 1);
      expect(fields['data.0.100000']).toEqual(['No question of this form has this id.']);
      expect(fields.non_field_errors).toEqual([moreErrorsMessage(3000 - PROBLEM_LIMITS.fields)]);
      expect(Buffer.byteLength(JSON.stringify(fields))).toBeLessThanOrEqual(PROBLEM_LIMITS.bytes);
      expect(others.map((o) => o.email)).toEqual([0, 1, 2, 3, 4].map((i) => `req-ok-${i}-1234`));
      // A plain client sees the status and its message, and no detail in the trailers.
      const raw = await new Promise<ServiceError>((resolve) =>
        client.raw.emailCheck({ email: 'many' }, new Metadata(), (err) => resolve(err!)),
      );
      expect(raw).toMatchObject({ code: status.INVALID_ARGUMENT, details: 'Invalid input.' });
      expect(raw.metadata.get('fw-problem')).toEqual([]);
      expect(JSON.stringify(raw.metadata.toJSON()).length).toBeLessThan(1024);
    } finally {
      client.close();
      await server.shutdown(1000);
    }
  });

  it("aborts a handler's signal when its caller's deadline passes, so long work can stop", async () => {
    const port = await freePort();
    let aborted!: (ms: number) => void;
    const seen = new Promise<number>((r) => (aborted = r));
    const impl = implement(
      auth.AuthServiceService,
      {
        ...handlers(Promise.resolve()),
        emailCheck: (_req, ctx) =>
          new Promise((_resolve, reject) => {
            const t0 = performance.now();
            ctx.signal.addEventListener('abort', () => {
              aborted(performance.now() - t0);
              reject(problems.timeout());
            });
          }),
      },
      log,
    );
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port,
      services: [{ name: 'fieldwork.auth.v1.AuthService', definition: auth.AuthServiceService, implementation: impl }],
      log,
    });
    server.setServing(true);
    const client = createClient(auth.AuthServiceClient, `127.0.0.1:${port}`, { defaultTimeoutMs: 300 });
    try {
      await expect(client.emailCheck({ email: 'a@b.co' })).rejects.toMatchObject({ code: '504.1' });
      expect(await seen).toBeLessThan(2000);
    } finally {
      client.close();
      await server.shutdown(1000);
    }
  });

  it('answers grpc.health.v1 NOT_SERVING until told otherwise', async () => {
    const port = await freePort();
    const server = await startGrpcServer({ host: '127.0.0.1', port, services: [], log });
    const { makeClientConstructor } = await import('@grpc/grpc-js');
    const { service } = await import('grpc-health-check');
    const Health = makeClientConstructor(service, 'Health');
    const client = new Health(`127.0.0.1:${port}`, credentials.createInsecure()) as unknown as {
      check: (r: { service: string }, cb: (e: unknown, res: { status: string | number }) => void) => void;
      close(): void;
    };
    const check = () =>
      new Promise<string | number>((res, rej) => client.check({ service: '' }, (e, r) => (e ? rej(e) : res(r.status))));
    expect(await check()).toSatisfy((s) => s === 'NOT_SERVING' || s === 2);
    server.setServing(true);
    expect(await check()).toSatisfy((s) => s === 'SERVING' || s === 1);
    client.close();
    await server.shutdown(1000);
  });
});

describe('NATS', () => {
  it('creates a stream once and updates it idempotently', async () => {
    const nats = await connectNats(infra.natsUrl, { name: 'kit-test', log });
    try {
      const cfg = { name: `${infra.natsPrefix}_KIT`, subjects: [`${infra.natsPrefix}.kit.>`] };
      await ensureStream(nats.jsm, cfg);
      await ensureStream(nats.jsm, { ...cfg, max_msgs: 1000 });
      const info = await nats.jsm.streams.info(cfg.name);
      expect(info.config.max_msgs).toBe(1000);
      const ack = await nats.js.publish(`${infra.natsPrefix}.kit.1`, 'hello', { msgID: 'm-1' });
      const dup = await nats.js.publish(`${infra.natsPrefix}.kit.1`, 'hello', { msgID: 'm-1' });
      expect(ack.duplicate).toBe(false);
      expect(dup.duplicate).toBe(true);
    } finally {
      await nats.close();
    }
  });
});
