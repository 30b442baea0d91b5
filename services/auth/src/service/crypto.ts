// Password hashing (argon2id), random tokens and access-token signing.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { createSigner } from 'fast-jwt';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** argon2id with OWASP's minimum parameters by default (19 MiB, 2 passes, 1 lane). */
export function argon2Hasher(options: { memoryKiB: number; timeCost: number }): PasswordHasher {
  const params: Parameters<typeof argon2.hash>[1] = {
    type: argon2.argon2id,
    memoryCost: options.memoryKiB,
    timeCost: options.timeCost,
    parallelism: 1,
  };
  return {
    hash: (password) => argon2.hash(password, params),
    verify: async (hash, password) => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
  };
}

/** 256 random bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Claims of an access token. The gateway verifies it with the same secret. */
export interface AccessClaims {
  user_id: number;
  sid: string;
  is_staff: boolean;
  is_superuser: boolean;
  token_type: 'access';
}

export class TokenIssuer {
  private readonly sign: (payload: AccessClaims) => string;
  private readonly successorKey: Buffer;

  constructor(secret: string, ttlSeconds: number) {
    this.sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
    this.successorKey = createHmac('sha256', secret).update('fieldwork refresh successor').digest();
  }

  /**
   * The refresh token that succeeds `token`: derived (HMAC with a key of the server's secret), so that a lost answer
   * can be answered again with the same token without the token being stored (domain/refresh-reuse.ts).
   */
  successor(token: string): string {
    return createHmac('sha256', this.successorKey).update(token).digest('base64url');
  }

  access(claims: Omit<AccessClaims, 'token_type'>): string {
    return this.sign({ ...claims, token_type: 'access' });
  }
}
