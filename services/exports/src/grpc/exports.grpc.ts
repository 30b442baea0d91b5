// ExportsService over gRPC. It declares no calls yet; health is served by service-kit.
import { exports_ } from '@fieldwork/proto';
import { implement, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';

export function exportsGrpc(log: Logger): GrpcServiceRegistration {
  return {
    name: 'fieldwork.exports.v1.ExportsService',
    definition: exports_.ExportsServiceService,
    implementation: implement(exports_.ExportsServiceService, {}, log),
  };
}
