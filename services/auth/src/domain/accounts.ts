// Account rules of spec 000 §5 and §9: login normalisation, email and password checks, names, terms versions.
import { dictionary } from '@zxcvbn-ts/language-common';
import type { FieldErrors } from '@fieldwork/service-kit/problems';

/** Current versions of the terms of service and the privacy policy (spec 000 §9), kept in packages/access. */
import { PRIVACY_VERSION, TERMS_VERSION } from '@fieldwork/access';
export { PRIVACY_VERSION, TERMS_VERSION };

const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const MESSAGES = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  email: 'Enter a valid email address.',
  passwordShort: 'This password is too short. It must contain at least 8 characters.',
  passwordLong: 'This password is too long. It must contain at most 128 characters.',
  passwordNumeric: 'This password is entirely numeric.',
  passwordSimilar: 'The password is too similar to the username.',
  passwordCommon: 'This password is too common.',
  wrongPassword: 'Wrong password.',
  badVersion: 'Unknown version.',
  nameTooLong: 'Ensure this field has no more than 150 characters.',
} as const;

/** Login lower-cases and trims the username and trims the password. */
export function normalizeLogin(username: string, password: string): { username: string; password: string } {
  return { username: username.trim().toLowerCase(), password: password.trim() };
}

/** Emails must match a standard address pattern after trimming. */
export function isValidEmail(email: string): boolean {
  const e = email.trim();
  return e.length <= 254 && EMAIL.test(e);
}

/** The username of a user created from an email: the lower-cased, trimmed email. */
export function usernameFromEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Password policy; returns the messages that apply (empty when acceptable). */
/** 49,233 passwords seen most in breaches (zxcvbn-ts's common list), as Django's CommonPasswordValidator refuses them. */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common']);

export function passwordProblems(password: string, identity: { username?: string; email?: string } = {}): string[] {
  const out: string[] = [];
  if (password.length < 8) out.push(MESSAGES.passwordShort);
  if (password.length > 128) out.push(MESSAGES.passwordLong);
  if (/^\d+$/.test(password)) out.push(MESSAGES.passwordNumeric);
  const lower = password.toLowerCase();
  // Too similar: the password is the username or the email's local part, or is contained in one of them.
  const similar = [identity.username, identity.email, identity.email?.split('@')[0]].some(
    (s) => s !== undefined && s !== '' && s.toLowerCase().includes(lower),
  );
  if (similar) out.push(MESSAGES.passwordSimilar);
  if (COMMON_PASSWORDS.has(lower)) out.push(MESSAGES.passwordCommon);
  return out;
}

/** Adds `messages` under `field` when there are any. */
export function addFieldErrors(errors: FieldErrors, field: string, messages: string[]): FieldErrors {
  if (messages.length > 0) errors[field] = [...(errors[field] ?? []), ...messages];
  return errors;
}

/** The display name: first and last name, or the username when both are blank. */
export function displayName(user: { first_name: string; last_name: string; username: string }): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name === '' ? user.username : name;
}

/** The profile name is split into first and last name: the first word and the last word (spec 000 §5). */
export function splitName(name: string): { first_name: string; last_name: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { first_name: '', last_name: '' };
  return { first_name: words[0]!, last_name: words.length > 1 ? words[words.length - 1]! : '' };
}

/** The user continues only when the stored agreed versions equal the current ones, each separately. */
export function legalAcceptance(settings: { agreed_terms: string; agreed_privacy: string }): {
  terms: boolean;
  privacy: boolean;
} {
  return { terms: settings.agreed_terms === TERMS_VERSION, privacy: settings.agreed_privacy === PRIVACY_VERSION };
}

/** Only the current versions may be recorded as accepted. */
export function checkAgreedVersion(field: 'agreed_terms' | 'agreed_privacy', value: string): string[] {
  const expected = field === 'agreed_terms' ? TERMS_VERSION : PRIVACY_VERSION;
  return value === expected ? [] : [`${MESSAGES.badVersion} The current version is ${expected}.`];
}

/** The domain part of an email, lower-cased. */
export function emailDomain(email: string): string {
  return email.trim().toLowerCase().split('@')[1] ?? '';
}

/**
 * Whether nobody has confirmed an account yet (issue 30 item 2): someone else made it, and no password was ever chosen
 * from a link mailed to its address nor any sign-in made. Such an account is invited with a link that sets its
 * password; one that someone confirmed is invited to sign in and accept.
 */
export function isUnconfirmed(user: { password_hash: string | null; last_login: Date | null }): boolean {
  return user.password_hash === null && user.last_login === null;
}

/**
 * What adding an address to a workspace answers (issue 30 item 7): an invitation made only of what the caller sent,
 * the same whether an account uses the address or not, so the answer tells nothing of an account (not its name,
 * username or id). The person is a member once they accept.
 */
export function invitationAnswer(req: {
  email: string;
  first_name: string;
  last_name: string;
  organization: number;
  roles: { owner: boolean; user_admin: boolean; project_admin: boolean; billing_admin: boolean };
}) {
  const username = usernameFromEmail(req.email);
  return {
    id: 0,
    user: 0,
    orguser_id: 0,
    name: displayName({ first_name: req.first_name, last_name: req.last_name, username }),
    email: req.email,
    username,
    first_name: req.first_name,
    last_name: req.last_name,
    ...req.roles,
    organization: req.organization,
    is_active: false,
    invited: true,
  };
}
