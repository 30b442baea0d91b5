// The pino root logger of a process: JSON lines, secrets redacted, pretty only on a TTY.
import { createRequire } from 'node:module';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line. */
export const REDACT_PATHS = [
  'password',
  'new_password',
  'old_password',
  'token',
  'access',
  'refresh',
  'nonce',
  'secret',
  'authorization',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.token',
  '*.access',
  '*.refresh',
  '*.nonce',
  '*.secret',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
];

function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** Creates the root logger of a process named `name`. */
export function createLogger(name: string, level = 'info', options: LoggerOptions = {}): Logger {
  const pretty = process.stdout.isTTY && prettyAvailable();
  return pino({
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l' } } } : {}),
    ...options,
  });
}
