import { describe, expect, it } from 'vitest';
import { linkState, linkUrl } from './linksApi';

describe('linkUrl', () => {
  it('builds the respondent’s address on the host the administrator reached, by kind (spec 000 §2)', () => {
    expect(linkUrl({ kind: 'anonymous', token: 'aB-9_x' }, 'https://field.example.org/')).toBe(
      'https://field.example.org/collect/anonymous/aB-9_x',
    );
    expect(linkUrl({ kind: 'survey', token: 'tok' }, 'http://10.0.0.5:8080/')).toBe(
      'http://10.0.0.5:8080/collect/survey/tok',
    );
  });
});

describe('linkState', () => {
  it('says revoked before expired (a revoked link has expired too), else active', () => {
    expect(linkState({ expired: true, revoked_at: '2026-11-26T09:00:00.000Z' })).toBe('revoked');
    expect(linkState({ expired: true, revoked_at: null })).toBe('expired');
    expect(linkState({ expired: false, revoked_at: null })).toBe('active');
  });
});
