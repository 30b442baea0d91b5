// The device queue: what needs upload (spec 001 §4), and the sync against answers of a server: offline leaves a
// response waiting, a server failure is tried again later (three in a row and it waits for the person), a refusal
// needs attention with the server's messages, success marks it uploaded. Nothing ever leaves the device unsent.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { localStore, needsUpload, resetLocalStoreForTests, type LocalResponse } from './localStore';
import { backoffMs, BACKOFF, MAX_SERVER_FAILURES, resend, syncAll, SYNC_MESSAGES } from './sync';
import { serverProblems } from './validation';
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
    expect(
      needsUpload({ sync: 'pending', time_updated: '2026-01-01T00:00:00Z', time_uploaded: '2026-01-01T00:00:00Z' }),
    ).toBe(true);
    expect(
      needsUpload({ sync: 'uploaded', time_updated: '2026-01-01T00:00:00Z', time_uploaded: '2026-01-01T00:00:01Z' }),
    ).toBe(false);
    expect(needsUpload({ sync: 'draft', time_updated: '2026-01-01T00:00:00Z', time_uploaded: null })).toBe(false);
  });
});

describe('messages', () => {
  it("puts the server's messages at their questions, and the rest apart; else the spec default of a link", () => {
    expect(serverProblems({ detail: 'No.' }, 'Refused.')).toEqual({ byItem: new Map(), general: ['No.'] });
    expect(
      serverProblems(
        {
          non_field_errors: ['All required questions must be answered to save this record.'],
          'data.0.3': ['This question is required.'],
          site: ['You cannot add responses to this site.'],
        },
        'Refused.',
      ),
    ).toEqual({
      byItem: new Map([[3, 'This question is required.']]),
      general: [
        'All required questions must be answered to save this record.',
        'site: You cannot add responses to this site.',
      ],
    });
    expect(serverProblems('<html>', 'Refused.')).toEqual({ byItem: new Map(), general: ['Refused.'] });
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
    // The network came back: the backoff is skipped.

    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body)) as { response_id: string };
        calls.push(
          `${url.replace(/^.*\/api\//, '')} ${body.response_id} ${(init.headers as Record<string, string>).Authorization}`,
        );
        return body.response_id === 'a'
          ? new Response(JSON.stringify({ non_field_errors: ['This form does not belong to the project.'] }), {
              status: 400,
            })
          : new Response(JSON.stringify({ upload_status: 'stored' }), { status: 201 });
      }),
    );
    await syncAll(true);
    expect(calls).toEqual([
      `project/7/response/complete/ a JWT ${jwtFor(5)}`,
      `project/7/response/complete/ b JWT ${jwtFor(5)}`,
    ]);
    expect(await localStore.get('a')).toMatchObject({
      sync: 'failed',
      error: 'This form does not belong to the project.',
    });
    const b = (await localStore.get('b'))!;
    expect(b.sync).toBe('uploaded');
    expect(needsUpload(b)).toBe(false);
    // A refused response is never sent again by itself, and it stays on the device.
    await syncAll(true);
    expect(calls).toHaveLength(2);
    expect(await localStore.unsent(5)).toHaveLength(1);
  });

  it('runs once more when the network comes back during a run that found no network', async () => {
    await localStore.put(response('late'));
    // A run is under way and its upload is about to fail: the network is not back yet.
    let failFirst!: () => void;
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        calls.push(url);
        if (calls.length === 1)
          return new Promise((_, reject) => (failFirst = () => reject(new TypeError('Failed to fetch'))));
        return Promise.resolve(new Response(JSON.stringify({ upload_status: 'stored' }), { status: 201 }));
      }),
    );
    const first = syncAll();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    // The online event arrives now: it must not just share the run that is failing.
    const back = syncAll(true);
    failFirst();
    await first;
    await back;
    expect(calls).toHaveLength(2);
    expect((await localStore.get('late'))!.sync).toBe('uploaded');
  });

  it('keeps the server messages of a refusal by question, and sends it again when the person asks', async () => {
    await localStore.put(response('fix-me', { data: { '0': { 3: 500 } } }));
    let answer = new Response(JSON.stringify({ 'data.0.3': ['Ensure this value is less than or equal to 100.'] }), {
      status: 400,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer),
    );
    await syncAll();
    expect(await localStore.get('fix-me')).toMatchObject({
      sync: 'failed',
      problems: { items: { 3: 'Ensure this value is less than or equal to 100.' }, general: [] },
    });
    answer = new Response('{}', { status: 200 });
    expect(await resend('fix-me')).toEqual({ kind: 'uploaded' });
    expect(await localStore.get('fix-me')).toMatchObject({ sync: 'uploaded', problems: undefined, error: undefined });
  });

  it('tries a response the server failed again later with the same response_id, and after three failures waits for the person', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-02T08:00:00Z'), toFake: ['Date'] });
    try {
      await localStore.put(response('flaky'));
      const ids: string[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (_url: string, init: RequestInit) => {
          ids.push((JSON.parse(String(init.body)) as { response_id: string }).response_id);
          return new Response(JSON.stringify({ error_message: 'Server error.' }), { status: 503 });
        }),
      );
      await syncAll();
      const first = (await localStore.get('flaky'))!;
      expect(first).toMatchObject({ sync: 'pending', attempts: 1, server_failures: 1 });
      expect(first.next_attempt_at! - Date.now()).toBeGreaterThanOrEqual(BACKOFF.firstMs);
      // Not due yet: nothing is sent.
      await syncAll();
      expect(ids).toHaveLength(1);
      for (let i = 1; i < MAX_SERVER_FAILURES; i++) {
        vi.setSystemTime(Date.now() + BACKOFF.maxMs * 2);
        await syncAll();
      }
      expect(ids).toEqual(['flaky', 'flaky', 'flaky']);
      expect(await localStore.get('flaky')).toMatchObject({
        sync: 'failed',
        error: SYNC_MESSAGES.serverFailing,
        server_failures: MAX_SERVER_FAILURES,
      });
      vi.setSystemTime(Date.now() + BACKOFF.maxMs * 2);
      await syncAll();
      expect(ids).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('spaces tries out from 5 seconds, doubling, to at most 5 minutes', () => {
    expect(backoffMs(1, 0)).toBe(5000);
    expect(backoffMs(2, 0)).toBe(10_000);
    expect(backoffMs(3, 0)).toBe(20_000);
    expect(backoffMs(20, 0)).toBe(300_000);
    expect(backoffMs(20, 1)).toBe(360_000);
  });

  it("uploads only the signed-in user's responses, and a link's with its own token", async () => {
    await localStore.put(response('mine'));
    await localStore.put(response('theirs', { user: 6 }));
    await localStore.put(response('link', { user: 0, token: 'collect-token' }));
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        seen.push(
          `${(JSON.parse(String(init.body)) as { response_id: string }).response_id} ${(init.headers as Record<string, string>).Authorization}`,
        );
        return new Response('{}', { status: 201 });
      }),
    );
    await syncAll();
    expect(seen.sort()).toEqual([`link JWT collect-token`, `mine JWT ${jwtFor(5)}`]);
    expect((await localStore.get('theirs'))!.sync).toBe('pending');
  });
});
