// Where the user goes after login (spec 000 §2 route behaviour).

export const DEFAULT_LANDING = '/projects';

/** `next` unless it is a login path; else the only project of the workspace when there is exactly one; else projects. */
export function afterLoginPath(next: string | null, onlyProjectId?: number): string {
  if (
    next &&
    next.startsWith('/') &&
    !next.startsWith('//') &&
    !next.startsWith('/login-home') &&
    !next.startsWith('/logout')
  )
    return next;
  return onlyProjectId !== undefined ? `/project/${onlyProjectId}` : DEFAULT_LANDING;
}
