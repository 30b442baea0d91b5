// AuthService over gRPC: each call goes to one use case.
import { auth } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { AccountService } from '../service/account.service.js';
import type { AdminService } from '../service/admin.service.js';
import type { AuditService } from '../service/audit.service.js';
import type { OrganizationService } from '../service/organization.service.js';
import type { SessionService } from '../service/session.service.js';
import type { MemberService } from '../service/member.service.js';
import type { IdentityService } from '../service/identity.service.js';
import type { CredentialService } from '../service/credential.service.js';

export function authGrpc(
  s: {
    sessions: SessionService;
    accounts: AccountService;
    organizations: OrganizationService;
    members: MemberService;
    credentials: CredentialService;
    admin: AdminService;
    audit: AuditService;
    identities: IdentityService;
  },
  log: Logger,
): GrpcServiceRegistration {
  const handlers: AsyncHandlers<auth.AuthServiceServer> = {
    login: (req) => s.sessions.login(req),
    recordAudit: (req) => s.audit.record(req),
    listAudit: (req) => s.audit.list(req),
    refreshToken: (req) => s.sessions.refresh(req),
    logout: (req) => s.sessions.logout(req),
    getUser: (req) => s.accounts.getUser(req),
    updateUser: (req) => s.accounts.updateUser(req),
    updateSettings: (req) => s.accounts.updateSettings(req),
    requestPasswordReset: (req) => s.accounts.requestPasswordReset(req),
    resetPassword: (req) => s.accounts.resetPassword(req),
    changePassword: (req) => s.accounts.changePassword(req),
    emailCheck: (req) => s.accounts.emailCheck(req),
    requestInvite: (req) => s.accounts.requestInvite(req),
    organizationMatch: (req) => s.accounts.organizationMatch(req),
    listOrganizations: (req) => s.organizations.list(req),
    createOrganization: (req) => s.organizations.create(req),
    getOrganization: (req) => s.organizations.get(req),
    updateOrganization: (req) => s.organizations.update(req),
    createOrganizationUser: (req) => s.organizations.createUser(req),
    listInvitations: (req) => s.members.invitations(req),
    answerInvitation: (req) => s.members.answerInvitation(req),
    listOrganizationUsers: (req) => s.members.list(req),
    updateOrganizationUser: (req) => s.members.update(req),
    removeOrganizationUser: (req) => s.members.remove(req),
    listApiKeys: (req) => s.credentials.listApiKeys(req),
    createApiKey: (req) => s.credentials.createApiKey(req),
    revokeApiKey: (req) => s.credentials.revokeApiKey(req),
    authenticateApiKey: (req) => s.credentials.authenticateApiKey(req),
    listIntegrations: (req) => s.credentials.listIntegrations(req),
    createIntegration: (req) => s.credentials.createIntegration(req),
    setIntegrationProjects: (req) => s.credentials.setIntegrationProjects(req),
    verifyIntegration: (req) => s.credentials.verifyIntegration(req),
    getMembership: (req) => s.organizations.membership(req),
    getUsers: (req) => s.members.getUsers(req),
    memberIds: (req) => s.members.memberIds(req),
    ensureMember: (req) => s.members.ensureMember(req),
    adminCreateUser: (req) => s.admin.createUser(req),
    adminCreateOrganization: (req) => s.admin.createOrganization(req),
    adminSetPassword: (req) => s.admin.setPassword(req),
    adminSetFeatures: (req) => s.admin.setFeatures(req),
    sendMail: (req) => s.admin.sendMail(req),
    listIdentityProviders: (req) => Promise.resolve(s.identities.listProviders(req)),
    startOidc: (req) => s.identities.start(req),
    oidcCode: (req) => s.identities.code(req),
    signUp: (req) => s.identities.signUp(req),
  };
  return {
    name: 'fieldwork.auth.v1.AuthService',
    definition: auth.AuthServiceService,
    implementation: implement(auth.AuthServiceService, handlers, log),
  };
}
