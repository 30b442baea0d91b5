// The JetStream streams shared by services (docs/architecture.md), named with the deployment's prefix.
import type { StreamConfig } from './nats.js';

const prefixed = (prefix: string, name: string) => (prefix === '' ? name : `${prefix}_${name}`);
const subject = (prefix: string, s: string) => (prefix === '' ? s : `${prefix}.${s}`);

/** RESPONSES: every accepted response change, on subject responses.<projectId>. */
export function responsesStream(prefix: string): Partial<StreamConfig> & { name: string; subjects: string[] } {
  return {
    name: prefixed(prefix, 'RESPONSES'),
    subjects: [subject(prefix, 'responses.>')],
    // De-duplicates a retried publish by its Nats-Msg-Id (<response_id>:<version>) within this window.
    duplicate_window: 2 * 60 * 1_000_000_000,
  };
}

/** The subject of a project's response changes. */
export function responseSubject(prefix: string, projectId: number): string {
  return subject(prefix, `responses.${projectId}`);
}
