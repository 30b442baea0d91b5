// Sign-in through an identity provider (spec 000 §7: oauth/providers/, oauth/code/ on the v1 base), sign-up and the
// terms and privacy texts (issue 19).
import { api } from '../../app/api';
import type { LoginReply } from './types';

export interface IdentityProviders {
  results: { id: string; name: string }[];
  count: number;
  signup_enabled: boolean;
}

export interface LegalTexts {
  terms: { version: string; text: string };
  privacy: { version: string; text: string };
}

export interface SignUpBody {
  email: string;
  name: string;
  password: string;
  newOrgName: string;
  orgDescription: string;
}

export const identityApi = api.injectEndpoints({
  endpoints: (build) => ({
    identityProviders: build.query<IdentityProviders, string>({
      query: (email) =>
        email === '' ? 'api/v1/oauth/providers/' : `api/v1/oauth/providers/?email=${encodeURIComponent(email)}`,
    }),
    startOidc: build.mutation<
      { authorization_url: string; state: string },
      { identity_provider: string; code_challenge: string }
    >({
      query: (body) => ({ url: 'api/v1/oauth/authorize/', method: 'POST', body }),
    }),
    oidcCode: build.mutation<
      LoginReply,
      { code: string; code_verifier: string; identity_provider: string; state: string; iss?: string }
    >({
      query: (body) => ({ url: 'api/v1/oauth/code/', method: 'POST', body }),
    }),
    signUp: build.mutation<LoginReply, SignUpBody>({
      query: (body) => ({ url: 'accounts/signup/', method: 'POST', body }),
    }),
    legalTexts: build.query<LegalTexts, undefined>({ query: () => 'legal/' }),
  }),
});

export const {
  useIdentityProvidersQuery,
  useStartOidcMutation,
  useOidcCodeMutation,
  useSignUpMutation,
  useLegalTextsQuery,
} = identityApi;
