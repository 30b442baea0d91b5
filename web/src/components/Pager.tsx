// Previous, "Page n of m" and next for a list paged on the server (the workspace's and a project's people).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function Pager({
  page,
  pages,
  onPage,
  testId,
  children,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  testId?: string;
  /** Said after "Page n of m" (how many there are in all, say). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="pager" data-testid={testId}>
      <button type="button" aria-label={t('people.previous')} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ‹
      </button>
      <span>
        {t('people.pageOf', { page, pages })}
        {children ? <> {children}</> : null}
      </span>
      <button type="button" aria-label={t('people.next')} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        ›
      </button>
    </div>
  );
}
