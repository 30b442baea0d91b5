// The revocation list (issue 18): sessions and API keys ended before their tokens expire, and the users whose share
// links issued before a time are void, in two NATS KV buckets (NATS 2.9 features only). The auth service writes it;
// every gateway replica watches it into a local copy and checks each token against that copy, so a revocation takes
// effect everywhere within moments without a network call per request.
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from './logger.js';

const prefixed = (prefix: string, name: string) => (prefix === '' ? name : `${prefix}_${name}`);

/** The bucket names: sessions and API keys (entries live as long as an access token), users (one entry per user). */
export function revocationBuckets(prefix: string): { sessions: string; users: string } {
  return { sessions: prefixed(prefix, 'REVOKED_SESSIONS'), users: prefixed(prefix, 'REVOKED_USERS') };
}

/** One revocation: a session (`sid`), an API key (its prefix), or a user's share links issued before `at`. */
export type Revocation =
  | { kind: 'session'; ref: string; at: Date }
  | { kind: 'key'; ref: string; at: Date }
  | { kind: 'user'; ref: string; at: Date };

const sessionKey = (sid: string) => `s.${sid}`;
const apiKeyKey = (prefix: string) => `k.${prefix}`;

/** The writer's side (auth service): creates the buckets if needed and puts revocations. */
export class RevocationWriter {
  private constructor(
    private readonly sessions: KV,
    private readonly users: KV,
  ) {}

  /**
   * Opens (creating when missing) the buckets. `sessionTtlMs` must cover an access token's life: an entry is useless
   * once every token naming that session has expired, and the bucket forgets it then.
   */
  static async open(nc: NatsConnection, prefix: string, sessionTtlMs: number, log: Logger): Promise<RevocationWriter> {
    const names = revocationBuckets(prefix);
    const kvm = new Kvm(nc);
    const ensure = async (name: string, ttl: number) => {
      try {
        return await kvm.create(name, { history: 1, ...(ttl > 0 ? { ttl } : {}) });
      } catch (err) {
        // Made before with other limits (another access-token lifetime): use it as it is.
        log.warn({ err, bucket: name }, 'revocation bucket exists with other settings; using it');
        return kvm.open(name);
      }
    };
    return new RevocationWriter(await ensure(names.sessions, sessionTtlMs), await ensure(names.users, 0));
  }

  async put(r: Revocation): Promise<void> {
    const at = String(r.at.getTime());
    if (r.kind === 'session') await this.sessions.put(sessionKey(r.ref), at);
    else if (r.kind === 'key') await this.sessions.put(apiKeyKey(r.ref), at);
    else await this.users.put(r.ref, at);
  }
}

/** What the gateway asks of the list on every authenticated request. */
export interface RevocationCheck {
  /** The session of an access token (its `sid`) was revoked. */
  isSessionRevoked(sessionId: string): boolean;
  /** The API key with this prefix was revoked. */
  isApiKeyRevoked(prefix: string): boolean;
  /** Share links of this user issued (JWT iat, seconds) before this many seconds are void; 0 when none. */
  sharesRevokedBeforeS(userId: number): number;
}

/** No revocations: for gateways built in unit tests without NATS. */
export const NO_REVOCATIONS: RevocationCheck = {
  isSessionRevoked: () => false,
  isApiKeyRevoked: () => false,
  sharesRevokedBeforeS: () => 0,
};

/** The reader's side (gateway): a local copy of both buckets, kept current by watching them. */
export class RevocationList implements RevocationCheck {
  private readonly sessions = new Map<string, number>();
  private readonly users = new Map<number, number>();
  private readonly stops: Array<() => void> = [];
  private pruner: NodeJS.Timeout | undefined;

  private constructor(private readonly log: Logger) {}

  isSessionRevoked(sessionId: string): boolean {
    return sessionId !== '' && this.sessions.has(sessionKey(sessionId));
  }

  isApiKeyRevoked(prefix: string): boolean {
    return this.sessions.has(apiKeyKey(prefix));
  }

  sharesRevokedBeforeS(userId: number): number {
    // A share issued in the same second as the revocation is void too (iat has whole seconds): never one too few.
    const at = this.users.get(userId);
    return at === undefined ? 0 : Math.ceil(at / 1000);
  }

  /** Entries in the local copy (for the log and tests). */
  get size(): number {
    return this.sessions.size + this.users.size;
  }

  /**
   * Watches both buckets; resolves once the copy holds everything they held at the start, retrying (every 2 s)
   * while NATS or the buckets are not there yet. Afterwards NATS outages leave the copy as it was until the watch
   * resumes.
   */
  static async watch(nc: NatsConnection, prefix: string, log: Logger): Promise<RevocationList> {
    const list = new RevocationList(log);
    const names = revocationBuckets(prefix);
    for (let attempt = 1; ; attempt++) {
      try {
        const kvm = new Kvm(nc);
        const [sessions, users] = await Promise.all([kvm.open(names.sessions), kvm.open(names.users)]);
        const ttl = (await sessions.status()).ttl;
        await Promise.all([
          list.follow(sessions, (key, at) =>
            at === undefined ? list.sessions.delete(key) : list.sessions.set(key, at),
          ),
          list.follow(users, (key, at) => {
            const id = Number(key);
            if (!Number.isSafeInteger(id)) return;
            if (at === undefined) list.users.delete(id);
            else list.users.set(id, at);
          }),
        ]);
        // The bucket forgets entries past its TTL without telling watchers: forget them here too.
        if (ttl > 0) {
          list.pruner = setInterval(() => {
            const oldest = Date.now() - ttl;
            for (const [k, at] of list.sessions) if (at < oldest) list.sessions.delete(k);
          }, 60_000);
          list.pruner.unref();
        }
        log.info({ entries: list.size }, 'revocation list loaded');
        return list;
      } catch (err) {
        list.stop();
        if (attempt % 5 === 1) log.warn({ err, attempt }, 'revocation list not available yet; retrying');
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
    if (this.pruner) clearInterval(this.pruner);
  }

  /** Applies every entry of `kv` to the copy; resolves once the entries present at the start are in. */
  private async follow(kv: KV, apply: (key: string, at: number | undefined) => void): Promise<void> {
    const status = await kv.status();
    const lastSeq = status.values === 0 ? 0 : status.streamInfo.state.last_seq;
    const watch = await kv.watch();
    this.stops.push(() => watch.stop());
    let loaded!: () => void;
    const initial = new Promise<void>((resolve) => (loaded = resolve));
    if (lastSeq === 0) loaded();
    void (async () => {
      for await (const e of watch) {
        const at = e.operation === 'PUT' ? Number(e.string()) : undefined;
        apply(e.key, at !== undefined && Number.isFinite(at) ? at : undefined);
        if (e.revision >= lastSeq) loaded();
      }
    })().catch((err: unknown) => this.log.error({ err }, 'revocation watch ended'));
    await initial;
  }
}
