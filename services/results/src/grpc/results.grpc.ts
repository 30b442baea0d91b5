// ResultsService over gRPC. It declares no calls yet; health is served by service-kit.
import { results } from '@fieldwork/proto';
import { implement, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';

export function resultsGrpc(log: Logger): GrpcServiceRegistration {
  return {
    name: 'fieldwork.results.v1.ResultsService',
    definition: results.ResultsServiceService,
    implementation: implement(results.ResultsServiceService, {}, log),
  };
}
