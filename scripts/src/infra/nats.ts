// NATS with JetStream: the URL given, else a local server with JetStream if one answers, else nats-server
// started by us (installing Debian's nats-server if needed).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { aptInstall, firstExisting, which } from './system.js';
import { portOpen, waitFor } from './net.js';

export interface NatsHandle {
  url: string;
  started: boolean;
  /** The server's process id when this process started it. */
  pid?: number;
  stop(): Promise<void>;
}

/** True when a NATS server with JetStream answers at `url`. */
export async function jetStreamAnswers(url: string): Promise<boolean> {
  try {
    const nc = await connect({ servers: url.replace(/^nats:\/\//, ''), timeout: 2000, reconnect: false });
    try {
      const jsm = await jetstreamManager(nc, { timeout: 2000 });
      await jsm.getAccountInfo();
      return true;
    } finally {
      await nc.close();
    }
  } catch {
    return false;
  }
}

function natsBinary(): string | undefined {
  return (
    which('nats-server') ??
    firstExisting(['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'])
  );
}

export async function ensureNats(options: {
  url?: string;
  dataDir: string;
  port: number;
  log: (msg: string) => void;
  /** Always start our own nats-server, even when a local one answers. */
  own?: boolean;
}): Promise<NatsHandle> {
  const { log } = options;
  const none = { started: false, stop: async () => {} };
  if (options.url) {
    if (!(await jetStreamAnswers(options.url)))
      throw new Error(`no NATS with JetStream answers at NATS_URL ${options.url}`);
    return { url: options.url, ...none };
  }
  for (const port of options.own ? [options.port] : [4222, options.port]) {
    const url = `nats://127.0.0.1:${port}`;
    if (await jetStreamAnswers(url)) {
      log(`using the NATS server at ${url}`);
      return { url, ...none };
    }
  }
  let bin = natsBinary();
  if (!bin) {
    await aptInstall(['nats-server'], log);
    bin = natsBinary();
    if (!bin) throw new Error('nats-server not found after installing it');
  }
  // 4222 may be taken (by a NATS without JetStream, or one we were told not to use); then use our own port.
  const port = options.own || (await portOpen(4222)) ? options.port : 4222;
  const storeDir = join(options.dataDir, 'nats');
  mkdirSync(storeDir, { recursive: true });
  log(`starting nats-server with JetStream on port ${port}`);
  const child: ChildProcess = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const url = `nats://127.0.0.1:${port}`;
  await waitFor(
    'nats-server',
    async () => {
      if (child.exitCode !== null) throw new Error(`nats-server exited: ${stderr}`);
      return (await jetStreamAnswers(url)) ? true : undefined;
    },
    20_000,
  );
  return {
    url,
    started: true,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
