// The device outbox: what needs upload (spec 001 §4), and the sync against answers of a server: offline leaves a
// response waiting, a refusal marks it failed with the server's message, success marks it uploaded.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { localStore, needsUpload, resetLocalStoreForTests, type LocalResponse } from './localStore';
import { bodyMessage, syncAll } from './sync';
import { linkFailure } from './PublicCollect';
import { session } from '../../app/session';

const jwtFor = (userId: number) => `h.${btoa(JSON.stringify({ user_id: userId })).replace(/=+$/, '')}.s`;

function response(id: string, patch: Partial<LocalResponse> = {}): LocalResponse {
  return {
    response_id: id,
    project: 7,
    sampler_schema: 9,
    device_id: 'web1',
    user: 5,
    data: { '0': { 1: 3 } },
    completed: true,
    is_valid: true,
    time_created: '2026-11-01T10:00:00.000Z',
    time_updated: '2026-11-01T10:00:00.000Z',
    time_uploaded: null,
    sync: 'pending',
    ...patch,
  };
}

beforeEach(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
  resetLocalStoreForTests();
  session.store(jwtFor(5), 'refresh', Date.now());
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('needsUpload', () => {
  it('follows time_updated against time_uploaded, and never for drafts', () => {
    expect(needsUpload({ sync: 'pending', time_updated: '2026-01-01T00:00:00Z', time_uploaded: null })).toBe(true);
    expect(needsUpload({ sync: 'pending', time_updated: '2026-01-01T00:00:00Z', time_uploaded: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(needsUpload({ sync: 'uploaded', time_updated: '2026-01-01T00:00:00Z', time_uploaded: '2026-01-01T00:00:01Z' })).toBe(false);
    expect(needsUpload({ sync: 'draft', time_updated: '2026-01-01T00:00:00Z', time_uploaded: null })).toBe(false);
  });
});

describe('messages', () => {
  it('takes the server message, else the spec default of a link', () => {
    expect(bodyMessage({ detail: 'No.' })).toBe('No.');
    expect(bodyMessage({ non_field_errors: ['All required questions must be answered to save this record.'] })).toBe(
      'All required questions must be answered to save this record.',
    );
    expect(bodyMessage({ 'data.0.3': ['Enter a number.'] })).toBe('data.0.3: Enter a number.');
    expect(linkFailure({ details: 'Gone.' })).toBe('Gone.');
    expect(linkFailure({ error: 'Bad token.' })).toBe('Bad token.');
    expect(linkFailure(null)).toBe('This link has expired.');
  });
});

describe('syncAll', () => {
  it('keeps a response waiting while offline, marks a refusal failed, and an accepted one uploaded', async () => {
    await localStore.put(response('a'));
    await localStore.put(response('b', { time_updated: '2026-11-01T11:00:00.000Z' }));
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await syncAll();
    expect((await localStore.get('a'))!.sync).toBe('pending');
    expect((await localStore.get('b'))!.sync).toBe('pending');

    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body)) as { response_id: string };
        calls.push(`${url.replace(/^.*\/api\//, '')} ${body.response_id} ${(init.headers as Record<string, string>).Authorization}`);
        return body.response_id === 'a'
          ? new Response(JSON.stringify({ non_field_errors: ['This form does not belong to the project.'] }), { status: 400 })
          : new Response(JSON.stringify({ upload_status: 'stored' }), { status: 201 });
      }),
    );
    await syncAll();
    expect(calls).toEqual([`project/7/response/complete/ a JWT ${jwtFor(5)}`, `project/7/response/complete/ b JWT ${jwtFor(5)}`]);
    expect(await localStore.get('a')).toMatchObject({ sync: 'failed', error: 'This form does not belong to the project.' });
    const b = (await localStore.get('b'))!;
    expect(b.sync).toBe('uploaded');
    expect(needsUpload(b)).toBe(false);
  });

  it("uploads only the signed-in user's responses, and a link's with its own token", async () => {
    await localStore.put(response('mine'));
    await localStore.put(response('theirs', { user: 6 }));
    await localStore.put(response('link', { user: 0, token: 'collect-token' }));
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        seen.push(`${(JSON.parse(String(init.body)) as { response_id: string }).response_id} ${(init.headers as Record<string, string>).Authorization}`);
        return new Response('{}', { status: 201 });
      }),
    );
    await syncAll();
    expect(seen.sort()).toEqual([`link JWT collect-token`, `mine JWT ${jwtFor(5)}`]);
    expect((await localStore.get('theirs'))!.sync).toBe('pending');
  });
});
