// The three failure screens of the spec: a route that fails to render, the root, and the top-level fallback.
import { Component, useMemo, type ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import i18n from 'i18next';
import { newReferenceId, reportError } from './report';

/** A screen that fails to render: "Something went wrong." with an error reference ID. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const referenceId = useMemo(() => {
    const id = newReferenceId();
    reportError(error, id);
    return id;
  }, [error]);
  return (
    <div className="error-screen" role="alert" data-testid="route-error">
      <h2>{t('errors.somethingWrong')}</h2>
      <p>{t('errors.reported')}</p>
      <p>
        {t('errors.reference')}: <code>{referenceId}</code>
      </p>
    </div>
  );
}

/** The root shows "Critical Failure". */
export function RootError() {
  const error = useRouteError();
  const { t } = useTranslation();
  useMemo(() => reportError(error, newReferenceId(), 'critical'), [error]);
  return (
    <div className="error-screen" role="alert">
      <h1>{t('known.criticalFailure')}</h1>
    </div>
  );
}

/** The top-level fallback, outside the router: "An error has occured" (sic). */
export class TopLevelBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    reportError(error, newReferenceId(), 'critical');
  }
  override render() {
    return this.state.failed ? <div className="error-screen">{i18n.t('known.errorOccured')}</div> : this.props.children;
  }
}
