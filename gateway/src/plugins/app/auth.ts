// Access tokens: `Authorization: JWT <token>` verified with the secret the auth service signs with, and the
// caller of each authenticated request.
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { common } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit/problems';

interface AccessClaims {
  user_id: number;
  sid: string;
  is_staff: boolean;
  is_superuser: boolean;
  token_type: string;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    user: AccessClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: refuses the request unless it carries a valid access token; sets request.caller. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    caller: common.Caller;
  }
}

const SCHEME = /^JWT\s+(\S+)$/i;

export default fp(
  async (app, opts: { secret: string }) => {
    await app.register(fastifyJwt, {
      secret: opts.secret,
      verify: {
        algorithms: ['HS256'],
        cache: true,
        extractToken: (request: FastifyRequest) => SCHEME.exec(request.headers.authorization ?? '')?.[1],
      },
    });
    app.decorateRequest('caller', undefined as unknown as common.Caller);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (!SCHEME.test(request.headers.authorization ?? '')) throw problems.notAuthenticated();
      let claims: AccessClaims;
      try {
        claims = await request.jwtVerify<AccessClaims>();
      } catch {
        throw problems.tokenInvalid();
      }
      if (claims.token_type !== 'access' || !Number.isSafeInteger(claims.user_id) || claims.user_id <= 0) {
        throw problems.tokenInvalid();
      }
      request.caller = {
        user_id: claims.user_id,
        session_id: claims.sid,
        is_staff: claims.is_staff === true,
        is_superuser: claims.is_superuser === true,
        organization_id: 0,
      };
    });
  },
  { name: 'auth' },
);
