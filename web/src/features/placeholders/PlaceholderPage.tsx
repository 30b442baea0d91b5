// Screens whose issue has not landed yet: their title and route parameters, nothing invented.
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';

export function PlaceholderPage({ title }: { title: string }) {
  const { t } = useTranslation();
  const params = useParams();
  return (
    <section className="placeholder" data-testid="placeholder">
      <h1>{title}</h1>
      <p className="muted">{t('placeholder.later')}</p>
      {Object.keys(params).length > 0 && (
        <dl>
          {Object.entries(params).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
