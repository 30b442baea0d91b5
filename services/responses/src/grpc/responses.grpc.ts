// ResponsesService over gRPC: each call goes to one use case.
import { responses } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { CountService } from '../service/count.service.js';

export function responsesGrpc(counts: CountService, log: Logger): GrpcServiceRegistration {
  const handlers: AsyncHandlers<responses.ResponsesServiceServer> = {
    countResponses: (req) => counts.counts(req),
  };
  return {
    name: 'fieldwork.responses.v1.ResponsesService',
    definition: responses.ResponsesServiceService,
    implementation: implement(responses.ResponsesServiceService, handlers, log),
  };
}
