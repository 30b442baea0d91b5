// The caller of a request, checked to be present: every authenticated call names one.
import type { common } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';

export function callerOf(caller: common.Caller | undefined): common.Caller {
  if (!caller || caller.user_id <= 0) throw problems.notAuthenticated();
  return caller;
}
