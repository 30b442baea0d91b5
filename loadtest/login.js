// k6: logins (argon2id verification, rotating refresh tokens). k6 run -e BASE_URL=https://fieldwork.example.org loadtest/login.js
import http from 'k6/http';
import { check } from 'k6';
import { BASE, health, optionsFor, summary } from './lib/fieldwork.js';

export const options = optionsFor('login');

export function setup() {
  health();
}

export default function () {
  const r = http.post(`${BASE}/api/api-token-auth/`, JSON.stringify({ username: __ENV.USERNAME || 'demo', password: __ENV.PASSWORD || 'fieldwork-demo' }), {
    headers: { 'content-type': 'application/json' },
  });
  check(r, { 'logged in': (x) => x.status === 200 && typeof x.json('access') === 'string' });
}

export function handleSummary(data) {
  return summary('login', data);
}
