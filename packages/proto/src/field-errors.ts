// Field errors ({"field": ["message", ...]}) to and from their message form (map<string, FieldMessages>).
import type { FieldMessages } from './gen/common.js';

/** Field errors as the proto map carries them. */
export function toFieldMessages(errors: Record<string, string[]>): Record<string, FieldMessages> {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field, { messages }]));
}

/** The proto map back to field errors as the API answers them. */
export function fromFieldMessages(errors: Record<string, FieldMessages>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).map(([field, m]) => [field, m.messages]));
}
