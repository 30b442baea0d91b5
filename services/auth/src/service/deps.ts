// What the auth use cases depend on; passed in, so unit tests can use fakes.
import type { Logger, Sql } from '@fieldwork/service-kit';
import type { ThrottlePolicy } from '../domain/login-throttle.js';
import type { AuditLog } from './audit.service.js';
import type { PasswordHasher, TokenIssuer } from './crypto.js';

export interface AuthSettings {
  refreshTtlSeconds: number;
  /** A rotated refresh token presented again within this many ms is a benign race, later a theft. */
  refreshReuseGraceMs: number;
  resetNonceTtlSeconds: number;
  setPasswordTtlSeconds: number;
  publicUrl: string;
  inviteNotifyEmail: string;
  throttle: ThrottlePolicy;
}

export interface AuthDeps {
  sql: Sql;
  log: Logger;
  hasher: PasswordHasher;
  tokens: TokenIssuer;
  settings: AuthSettings;
  /** The audit log of security events (audit.service.ts). */
  audit: AuditLog;
}
