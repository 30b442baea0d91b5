// The logged-in workspace and what the caller may do in it, for screens to offer only what the caller can use.
import type { WorkspacePermission } from '@fieldwork/access';
import { useAppSelector } from '../../app/hooks';
import { useGetOrganizationQuery } from './sessionApi';
import type { Organization } from './types';

export function useWorkspace(): {
  organization?: Organization;
  can: (p: WorkspacePermission) => boolean;
  hasFeature: (f: string) => boolean;
  loaded: boolean;
} {
  const organizationId = useAppSelector((s) => s.session.organizationId);
  const { data } = useGetOrganizationQuery(organizationId ?? 0, { skip: organizationId === null });
  return {
    ...(data ? { organization: data } : {}),
    can: (p) => data?.permissions?.includes(p) === true,
    hasFeature: (f) => data?.flagged_features?.includes(f) === true,
    loaded: data !== undefined,
  };
}
