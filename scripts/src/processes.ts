// Child processes of the launcher: each in its own process group (so Ctrl-C reaches only the launcher, which
// stops them in order), stdin piped (a child exits when the launcher dies), logs prefixed and made readable.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export type LineSink = (name: string, line: string, stream: 'stdout' | 'stderr') => void;

export interface Child {
  name: string;
  process: ChildProcess;
  /** How it was started, so that a test can start it (or a replica) again. */
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export function startChild(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  sink: LineSink,
): Child {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  for (const stream of ['stdout', 'stderr'] as const) {
    const rl = createInterface({ input: child[stream]! });
    rl.on('line', (line) => sink(name, line, stream));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    process: child,
    command,
    args,
    env,
    exited,
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

const LEVELS: Record<number, [string, string]> = {
  10: ['TRACE', '\x1b[90m'],
  20: ['DEBUG', '\x1b[36m'],
  30: ['INFO ', '\x1b[32m'],
  40: ['WARN ', '\x1b[33m'],
  50: ['ERROR', '\x1b[31m'],
  60: ['FATAL', '\x1b[35m'],
};
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'v']);

/** Formats a pino JSON line as `name | HH:MM:SS LEVEL message key=value`; other lines pass through. */
export function formatLine(name: string, line: string, color: boolean, width = 9): string {
  const prefix = `${name.padEnd(width)}│ `;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
    if (typeof entry !== 'object' || entry === null || typeof entry.level !== 'number') throw new Error('not pino');
  } catch {
    return prefix + line;
  }
  const [label, tint] = LEVELS[entry.level as number] ?? ['?    ', ''];
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '';
  const rest = Object.entries(entry)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const lvl = color ? `${tint}${label}\x1b[0m` : label;
  return `${prefix}${time} ${lvl} ${String(entry.msg ?? '')}${rest ? ` ${color ? '\x1b[90m' : ''}${rest}${color ? '\x1b[0m' : ''}` : ''}`;
}
