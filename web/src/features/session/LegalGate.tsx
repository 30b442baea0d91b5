// Terms of service and privacy policy must be accepted, each in its current version, before continuing (spec 000
// §4). The texts are the deployment's (the gateway's LEGAL_DIR, GET legal/), shown with their versions; accepting
// records that version (PUT accounts/user/{id}/settings).
import { useTranslation } from 'react-i18next';
import { useAcceptLegalMutation } from './sessionApi';
import { useLegalTextsQuery } from './identityApi';
import { PRIVACY_VERSION, TERMS_VERSION } from './sessionSlice';
import type { User } from './types';
import { errorMessage } from '../errors/messages';

export function LegalGate({ user, status }: { user: User; status: { terms: boolean; privacy: boolean } }) {
  const { t } = useTranslation();
  const [accept, { isLoading, error }] = useAcceptLegalMutation();
  const texts = useLegalTextsQuery(undefined);
  const terms = texts.data?.terms ?? { version: TERMS_VERSION, text: '' };
  const privacy = texts.data?.privacy ?? { version: PRIVACY_VERSION, text: '' };
  const document = (kind: 'terms' | 'privacy', text: string) =>
    texts.isLoading ? (
      <p aria-busy="true">{t('app.loading')}</p>
    ) : texts.error ? (
      <p className="banner error">{errorMessage(texts.error)}</p>
    ) : (
      <div
        className="legal-text"
        tabIndex={0}
        data-testid={`legal-${kind}-text`}
        aria-label={t(`identity.${kind}Text`)}
      >
        {text.split(/\n\s*\n/).map((para, i) => (
          <p key={i}>{para}</p>
        ))}
      </div>
    );
  return (
    <div className="card narrow" data-testid="legal-gate">
      <h1>{t('legal.title')}</h1>
      {error && <p className="banner error">{errorMessage(error)}</p>}
      <section>
        <h2 data-testid="legal-terms-version">{t('identity.termsHeading', { version: terms.version })}</h2>
        <p>{t('legal.terms', { version: terms.version })}</p>
        {document('terms', terms.text)}
        {status.terms ? (
          <p className="ok">{t('legal.accepted')}</p>
        ) : (
          <button
            data-testid="accept-terms"
            disabled={isLoading || !texts.data}
            onClick={() => void accept({ id: user.id, agreed_terms: terms.version })}
          >
            {t('legal.acceptTerms')}
          </button>
        )}
      </section>
      <section>
        <h2 data-testid="legal-privacy-version">{t('identity.privacyHeading', { version: privacy.version })}</h2>
        <p>{t('legal.privacy', { version: privacy.version })}</p>
        {document('privacy', privacy.text)}
        {status.privacy ? (
          <p className="ok">{t('legal.accepted')}</p>
        ) : (
          <button
            data-testid="accept-privacy"
            disabled={isLoading || !texts.data}
            onClick={() => void accept({ id: user.id, agreed_privacy: privacy.version })}
          >
            {t('legal.acceptPrivacy')}
          </button>
        )}
      </section>
    </div>
  );
}
