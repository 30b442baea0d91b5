// AuthService over gRPC: each call goes to one use case.
import { auth } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { AccountService } from '../service/account.service.js';
import type { AdminService } from '../service/admin.service.js';
import type { OrganizationService } from '../service/organization.service.js';
import type { SessionService } from '../service/session.service.js';

export function authGrpc(
  s: { sessions: SessionService; accounts: AccountService; organizations: OrganizationService; admin: AdminService },
  log: Logger,
): GrpcServiceRegistration {
  const handlers: AsyncHandlers<auth.AuthServiceServer> = {
    login: (req) => s.sessions.login(req),
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
    getMembership: (req) => s.organizations.membership(req),
    adminCreateUser: (req) => s.admin.createUser(req),
    adminCreateOrganization: (req) => s.admin.createOrganization(req),
    adminSetPassword: (req) => s.admin.setPassword(req),
  };
  return {
    name: 'fieldwork.auth.v1.AuthService',
    definition: auth.AuthServiceService,
    implementation: implement(auth.AuthServiceService, handlers, log),
  };
}
