// The caller of a request, checked to be present: every authenticated call names one.
import type { common } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';

/** Whether the caller is an API key (the gateway sets organization_id for keys only: a key acts in one workspace). */
export const isApiKey = (caller: common.Caller): boolean => caller.organization_id > 0;

export function callerOf(caller: common.Caller | undefined): common.Caller {
  if (!caller || caller.user_id <= 0) throw problems.notAuthenticated();
  return caller;
}
