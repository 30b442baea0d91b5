// What a screen says when the caller's role (or the workspace's features) does not open it: which role or feature
// is missing, never a silent failure.
import { rolesGranting, type ScreenPermission } from '@fieldwork/access';
import { useTranslation } from 'react-i18next';

export function AccessHint({
  screens,
  feature,
  workspaceId,
}: {
  screens?: readonly ScreenPermission[];
  feature?: string;
  workspaceId?: number;
}) {
  const { t } = useTranslation();
  let text: string;
  if (feature) {
    text = t('access.needsFeature', {
      feature,
      command: `pnpm fieldwork workspace features --id ${workspaceId ?? 'ID'} --enable ${feature}`,
    });
  } else if (screens) {
    const roles = [...new Set(screens.flatMap((s) => rolesGranting(s)))].map((r) => t(`access.roles.${r}`));
    text = t('access.needsRole', { roles: roles.join(t('access.or')) });
  } else {
    text = t('access.needsWorkspace');
  }
  return (
    <section className="card access-hint" role="status" data-testid="access-hint">
      <h2>{feature ? t('hierarchy.featureOffTitle') : t('access.title')}</h2>
      <p>{text}</p>
    </section>
  );
}
