// Reports render failures to the server (POST error-reports/), with a reference id the user can quote.
import { API_BASE } from '../../app/baseQuery';

export function newReferenceId(): string {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36).slice(-4);
}

export function reportError(error: unknown, referenceId: string, severity: 'error' | 'critical' = 'error'): void {
  const e = error instanceof Error ? error : new Error(String(error));
  void fetch(`${API_BASE}error-reports/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      hashId: referenceId,
      message: e.message.slice(0, 2000),
      stack: (e.stack ?? '').slice(0, 20000),
      userAgent: navigator.userAgent.slice(0, 1000),
      location: window.location.pathname.slice(0, 2000),
      severity,
    }),
  }).catch(() => undefined);
}
