// Wiring only: builds the auth service from its dependencies (no listening here).
import { projects } from '@fieldwork/proto';
import { createClient, RevocationWriter, type BuiltService, type ServiceDeps } from '@fieldwork/service-kit';
import { startRevocationRelay } from './events/revocation-relay.js';
import { RevocationStore } from './store/revocation.store.js';
import { CredentialService, httpCrmVerifier } from './service/credential.service.js';
import { MemberService } from './service/member.service.js';
import type { AuthConfig } from './config.js';
import { mailSender, startMailRelay } from './events/mail-relay.js';
import { AuditLog, AuditService } from './service/audit.service.js';
import { OrganizationStore } from './store/organization.store.js';
import { authGrpc } from './grpc/auth.grpc.js';
import { AccountService } from './service/account.service.js';
import { AdminService } from './service/admin.service.js';
import { argon2Hasher, TokenIssuer } from './service/crypto.js';
import type { AuthDeps } from './service/deps.js';
import { OrganizationService } from './service/organization.service.js';
import { SessionService } from './service/session.service.js';
import { IdentityService } from './service/identity.service.js';
import { OutboxStore } from './store/outbox.store.js';

export async function buildAuth(config: AuthConfig, { sql, log, nats }: ServiceDeps): Promise<BuiltService> {
  // Every call to another service is sealed with the deployment's secret (service-kit call-seal.ts).
  const sealed = { secret: config.CONTEXT_SIGNING_SECRET ?? '' };
  const deps: AuthDeps = {
    sql,
    log,
    hasher: argon2Hasher({ memoryKiB: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_PASSES }),
    tokens: new TokenIssuer(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_S),
    settings: {
      refreshTtlSeconds: config.REFRESH_TOKEN_TTL_S,
      refreshReuseGraceMs: config.REFRESH_REUSE_GRACE_S * 1000,
      resetNonceTtlSeconds: config.RESET_LINK_TTL_S,
      setPasswordTtlSeconds: config.SET_PASSWORD_LINK_TTL_S,
      publicUrl: config.PUBLIC_URL.replace(/\/+$/, ''),
      inviteNotifyEmail: config.INVITE_NOTIFY_EMAIL,
      throttle: {
        freeAttempts: config.LOGIN_SLOWDOWN_AFTER,
        accountFreeAttempts: config.LOGIN_ACCOUNT_SLOWDOWN_AFTER,
        addressFreeAttempts: config.LOGIN_ADDRESS_SLOWDOWN_AFTER,
        baseDelayMs: config.LOGIN_SLOWDOWN_MS,
        maxDelayMs: config.LOGIN_MAX_DELAY_S * 1000,
        windowMs: config.LOGIN_WINDOW_MINUTES * 60_000,
      },
    },
    audit: new AuditLog(sql, log.child({ component: 'audit' })),
  };
  const accounts = new AccountService(deps);
  const projectsClient = createClient(projects.ProjectsServiceClient, config.PROJECTS_GRPC_ADDR, sealed);
  const projectIdsOf = async (
    caller: Parameters<typeof projectsClient.listProjects>[0]['caller'],
    organizationId: number,
  ) =>
    new Set((await projectsClient.listProjects({ caller, organization_id: organizationId })).results.map((p) => p.id));
  const services = {
    sessions: new SessionService(deps),
    accounts,
    organizations: new OrganizationService(deps, accounts),
    members: new MemberService(deps, accounts),
    credentials: new CredentialService(deps, httpCrmVerifier(config.INTEGRATION_CRM_VERIFY_URL), projectIdsOf),
    admin: new AdminService(deps),
    audit: new AuditService(deps.audit, new OrganizationStore(sql)),
  };
  const identities = new IdentityService(deps, services.sessions, {
    providers: config.identityProviders,
    redirectUri: config.OIDC_REDIRECT_URI || `${deps.settings.publicUrl}/login-home/oauth`,
    signupEnabled: config.SIGNUP_ENABLED,
  });
  const stopRelay = await startMailRelay(
    new OutboxStore(sql),
    mailSender(
      { transport: config.MAIL_TRANSPORT, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM },
      log.child({ component: 'mail' }),
    ),
    log.child({ component: 'mail' }),
  );
  if (!nats) throw new Error('the auth service needs NATS (the revocation list)');
  // Entries outlive the longest access token by a margin; API keys are cached for less than that.
  const revocations = await RevocationWriter.open(
    nats.nc,
    config.NATS_PREFIX ?? '',
    (config.ACCESS_TOKEN_TTL_S + 300) * 1000,
    log,
  );
  const stopRevocations = await startRevocationRelay(
    new RevocationStore(sql),
    (r) => revocations.put(r),
    log.child({ component: 'revocations' }),
  );
  return {
    services: [authGrpc({ ...services, identities }, log)],
    close: async () => {
      await stopRevocations();
      await stopRelay();
      projectsClient.close();
    },
  };
}
