// FormsService over gRPC. It declares no calls yet; health is served by service-kit.
import { forms } from '@fieldwork/proto';
import { implement, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';

export function formsGrpc(log: Logger): GrpcServiceRegistration {
  return {
    name: 'fieldwork.forms.v1.FormsService',
    definition: forms.FormsServiceService,
    implementation: implement(forms.FormsServiceService, {}, log),
  };
}
