// ResponsesService over gRPC. It declares no calls yet; health is served by service-kit.
import { responses } from '@fieldwork/proto';
import { implement, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';

export function responsesGrpc(log: Logger): GrpcServiceRegistration {
  return {
    name: 'fieldwork.responses.v1.ResponsesService',
    definition: responses.ResponsesServiceService,
    implementation: implement(responses.ResponsesServiceService, {}, log),
  };
}
