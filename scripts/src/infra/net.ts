// Ports: is one open, find a free one, wait for one.
import { randomInt } from 'node:crypto';
import { createServer, connect } from 'node:net';

export function portOpen(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Below Linux's ephemeral range (32768-60999): outgoing connections never take these between our check and use.
 * Test files that run side by side (vitest's workers, VITEST_POOL_ID 1, 2…) draw from separate quarters of the range,
 * so two stacks starting at once never pick the same port between one's check and its child's bind.
 */
const POOL = Number(process.env.VITEST_POOL_ID ?? 0) % 4;
const QUARTER = 3_000;
const PORT_LOW = process.env.VITEST_POOL_ID ? 20_000 + POOL * QUARTER : 20_000;
const PORT_HIGH = process.env.VITEST_POOL_ID ? PORT_LOW + QUARTER : 32_000;
const handedOut = new Set<number>();

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port that is free now. Ports the kernel picks (listen on 0) come from the ephemeral range, where a client's
 * outgoing connection can take one before our child binds it (a flaky EADDRINUSE when stacks start side by side), so
 * the port is drawn at random below that range, never twice in this process, and checked.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = randomInt(PORT_LOW, PORT_HIGH);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canBind(port)) return port;
  }
  throw new Error(`no free port found between ${PORT_LOW} and ${PORT_HIGH}`);
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
