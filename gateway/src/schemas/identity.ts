// Request and answer schemas of the identity-provider, sign-up and legal routes (routes/identity.ts).
import { accountSchemas } from './accounts.js';
import { openObject, query } from './common.js';

const strMax = (n: number) => ({ type: 'string', maxLength: n }) as const;
const legalText = openObject({
  version: { type: 'string', description: 'The version a user accepts (spec 000 §9)' },
  text: { type: 'string', description: "The deployment's text (plain text, paragraphs separated by blank lines)" },
});

export const identitySchemas = {
  providersQuery: query({ email: 'With an email, also the providers kept for its domain' }),
  providers: openObject({
    results: { type: 'array', items: openObject({ id: { type: 'string' }, name: { type: 'string' } }) },
    count: { type: 'integer' },
    signup_enabled: { type: 'boolean', description: 'Whether people may create an account on this server' },
  }),
  authorize: {
    type: 'object',
    required: ['identity_provider', 'code_challenge'],
    properties: { identity_provider: strMax(40), code_challenge: strMax(128) },
  },
  authorized: openObject({
    authorization_url: { type: 'string', description: "Where to send the browser: the provider's sign-in" },
    state: { type: 'string', description: 'The state the provider sends back; the callback sends it with the code' },
  }),
  code: {
    type: 'object',
    required: ['code', 'code_verifier', 'identity_provider'],
    properties: {
      code: strMax(4096),
      code_verifier: strMax(128),
      identity_provider: strMax(40),
      state: strMax(256),
      iss: strMax(1024),
    },
  },
  signup: {
    type: 'object',
    required: ['email', 'name', 'password', 'newOrgName'],
    properties: {
      email: strMax(254),
      name: strMax(300),
      password: strMax(256),
      newOrgName: strMax(255),
      orgDescription: strMax(1000),
    },
  },
  loginReply: accountSchemas.loginReply,
  legal: openObject({ terms: legalText, privacy: legalText }),
} as const;
