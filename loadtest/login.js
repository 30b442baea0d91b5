// k6: logins (argon2id verification, rotating refresh tokens). k6 run -e BASE_URL=https://fieldwork.example.org loadtest/login.js
import http from 'k6/http';
import { check } from 'k6';
import { BASE, health, optionsFor, summary } from './lib/fieldwork.js';

export const options = optionsFor('login');

export function setup() {
  health();
}

// USERS=name:password,name:password,... spreads the virtual users over accounts (parallel attempts on one account queue
// on its login throttle). The gateway limits logins per client address (RATE_LIMIT_LOGIN_PER_MIN): run from several
// machines, or lift the limit on the target for the test.
const USERS = (__ENV.USERS || `${__ENV.USERNAME || 'demo'}:${__ENV.PASSWORD || 'fieldwork-demo'}`)
  .split(',')
  .map((u) => {
    const at = u.indexOf(':');
    return { username: u.slice(0, at), password: u.slice(at + 1) };
  });

export default function () {
  const { username, password } = USERS[(__VU - 1) % USERS.length];
  const r = http.post(`${BASE}/api/api-token-auth/`, JSON.stringify({ username, password }), {
    headers: { 'content-type': 'application/json' },
  });
  check(r, { 'logged in': (x) => x.status === 200 && typeof x.json('access') === 'string' });
}

export function handleSummary(data) {
  return summary('login', data);
}
