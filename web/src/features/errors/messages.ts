// The message shown for a failed call, by the rules of spec 000 §8.
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { translateKnown } from '../../i18n/known';

export const NETWORK_MESSAGE = 'Please connect to internet and try again.';
export const ACCESS_MESSAGE = "You don't have access to this item.";

type Body = Record<string, unknown> | string | null | undefined;

function firstString(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

/** One message for an error body and status, in the user's language when it is one of the spec's texts. */
export function messageFor(
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR' | string,
  body: Body,
): string {
  return translateKnown(englishMessageFor(status, body));
}

function englishMessageFor(
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR' | string,
  body: Body,
): string {
  if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return NETWORK_MESSAGE;
  const data = typeof body === 'object' && body !== null ? body : undefined;
  if (status === 401 || status === 403 || status === 404) return firstString(data?.detail) ?? ACCESS_MESSAGE;
  if (typeof status === 'number' && status >= 500) {
    return (
      firstString(data?.error_message) ??
      firstString(data?.error) ??
      (typeof body === 'string' && body !== '' ? body : 'Server error.')
    );
  }
  if (typeof body === 'string' && body !== '') return body;
  if (data) {
    const named = firstString(data.detail) ?? firstString(data.message) ?? firstString(data.non_field_errors);
    if (named) return named;
    const [field, value] = Object.entries(data)[0] ?? [];
    if (field !== undefined) return `${field} : ${firstString(value) ?? JSON.stringify(value)}`;
  }
  return 'Something went wrong.';
}

/** The message of an RTK Query error. */
export function errorMessage(error: FetchBaseQueryError | SerializedError | undefined): string {
  if (!error) return '';
  if ('status' in error) return messageFor(error.status, error.data as Body);
  return translateKnown(error.message ?? 'Something went wrong.');
}

/** Field errors of a 400 body (e.g. {"username": ["..."]}), without non_field_errors and detail. */
export function fieldErrors(error: FetchBaseQueryError | SerializedError | undefined): Record<string, string> {
  if (!error || !('status' in error) || error.status !== 400 || typeof error.data !== 'object' || error.data === null)
    return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(error.data as Record<string, unknown>)) {
    if (k === 'non_field_errors' || k === 'detail') continue;
    const m = firstString(v);
    if (m) out[k] = translateKnown(m);
  }
  return out;
}

/** The banner message of a failure with field errors: non_field_errors or detail only (spec 000 §8 login rule). */
export function bannerMessage(error: FetchBaseQueryError | SerializedError | undefined): string {
  if (!error) return '';
  if ('status' in error && error.status === 400 && typeof error.data === 'object' && error.data !== null) {
    const d = error.data as Record<string, unknown>;
    return translateKnown(firstString(d.non_field_errors) ?? firstString(d.detail) ?? '');
  }
  return errorMessage(error);
}
