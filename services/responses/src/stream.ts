// The RESPONSES stream (DESIGN.md §2): every accepted response change, on subject responses.<projectId>.
import type { StreamConfig } from '@fieldwork/service-kit';

export function responsesStream(prefix: string): Partial<StreamConfig> & { name: string; subjects: string[] } {
  const p = prefix === '' ? '' : `${prefix}_`;
  return {
    name: `${p}RESPONSES`,
    subjects: [`${prefix === '' ? '' : `${prefix}.`}responses.>`],
    // De-duplicates a retried publish by its Nats-Msg-Id (<response_id>:<version>) within this window.
    duplicate_window: 2 * 60 * 1_000_000_000,
  };
}
