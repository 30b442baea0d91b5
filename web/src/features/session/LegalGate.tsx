// Terms of service and privacy policy must be accepted, each in its current version, before continuing.
import { useTranslation } from 'react-i18next';
import { useAcceptLegalMutation } from './sessionApi';
import { PRIVACY_VERSION, TERMS_VERSION } from './sessionSlice';
import type { User } from './types';
import { errorMessage } from '../errors/messages';

export function LegalGate({ user, status }: { user: User; status: { terms: boolean; privacy: boolean } }) {
  const { t } = useTranslation();
  const [accept, { isLoading, error }] = useAcceptLegalMutation();
  return (
    <div className="card narrow" data-testid="legal-gate">
      <h1>{t('legal.title')}</h1>
      {error && <p className="banner error">{errorMessage(error)}</p>}
      <section>
        <p>{t('legal.terms', { version: TERMS_VERSION })}</p>
        {status.terms ? (
          <p className="ok">{t('legal.accepted')}</p>
        ) : (
          <button
            data-testid="accept-terms"
            disabled={isLoading}
            onClick={() => void accept({ id: user.id, agreed_terms: TERMS_VERSION })}
          >
            {t('legal.acceptTerms')}
          </button>
        )}
      </section>
      <section>
        <p>{t('legal.privacy', { version: PRIVACY_VERSION })}</p>
        {status.privacy ? (
          <p className="ok">{t('legal.accepted')}</p>
        ) : (
          <button
            data-testid="accept-privacy"
            disabled={isLoading}
            onClick={() => void accept({ id: user.id, agreed_privacy: PRIVACY_VERSION })}
          >
            {t('legal.acceptPrivacy')}
          </button>
        )}
      </section>
    </div>
  );
}
