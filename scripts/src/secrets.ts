// Secrets of the single-machine mode, generated once and kept (mode 600) in the data directory.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalSecrets {
  jwtSecret: string;
  objectStoreSecret: string;
  /** Signs the project grants and seals every gRPC call between our processes (CONTEXT_SIGNING_SECRET). */
  contextSecret: string;
}

/** Reads the data directory's secrets, adding any that an older version did not have yet. */
export function localSecrets(dataDir: string): LocalSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  const secrets: LocalSecrets = {
    jwtSecret: stored.jwtSecret ?? randomBytes(48).toString('base64url'),
    objectStoreSecret: stored.objectStoreSecret ?? randomBytes(48).toString('base64url'),
    contextSecret: stored.contextSecret ?? randomBytes(48).toString('base64url'),
  };
  if (
    stored.jwtSecret !== secrets.jwtSecret ||
    stored.objectStoreSecret !== secrets.objectStoreSecret ||
    stored.contextSecret !== secrets.contextSecret
  ) {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}
