import { describe, expect, it } from 'vitest';
import { bannerMessage, fieldErrors, messageFor } from './messages';

describe('messageFor (spec 000 §8)', () => {
  it('says to connect on a network failure', () => {
    expect(messageFor('FETCH_ERROR', undefined)).toBe('Please connect to internet and try again.');
  });
  it('uses detail or the access message for 401, 403 and 404', () => {
    expect(messageFor(404, { detail: 'Invalid Organization Id!' })).toBe('Invalid Organization Id!');
    expect(messageFor(403, {})).toBe("You don't have access to this item.");
    expect(messageFor(401, null)).toBe("You don't have access to this item.");
  });
  it('uses error_message, error or the body for 500', () => {
    expect(messageFor(500, { error_message: 'Internal server error.', reference: 'r1' })).toBe(
      'Internal server error.',
    );
    expect(messageFor(502, { error: 'Bad gateway' })).toBe('Bad gateway');
    expect(messageFor(503, 'down for maintenance')).toBe('down for maintenance');
  });
  it('takes detail, message, a plain string, the first non_field_errors entry, or "field : value"', () => {
    expect(messageFor(400, { detail: 'd' })).toBe('d');
    expect(messageFor(409, { message: 'm' })).toBe('m');
    expect(messageFor(400, 'plain')).toBe('plain');
    expect(messageFor(400, { non_field_errors: ['first', 'second'] })).toBe('first');
    expect(messageFor(400, { email: ['Enter a valid email address.'] })).toBe('email : Enter a valid email address.');
  });
});

describe('login error display', () => {
  it('shows non_field_errors or detail as a banner, else field errors', () => {
    const banner = {
      status: 400,
      data: { non_field_errors: ['Unable to log in with provided credentials.'] },
    } as const;
    expect(bannerMessage(banner)).toBe('Unable to log in with provided credentials.');
    expect(fieldErrors(banner)).toEqual({});
    const fields = { status: 400, data: { username: ['This field may not be blank.'], password: ['x'] } } as const;
    expect(bannerMessage(fields)).toBe('');
    expect(fieldErrors(fields)).toEqual({ username: 'This field may not be blank.', password: 'x' });
    expect(
      bannerMessage({
        status: 429,
        data: { detail: 'Too many failed login attempts. Please try again in 15 minutes.' },
      }),
    ).toBe('Too many failed login attempts. Please try again in 15 minutes.');
  });
});
