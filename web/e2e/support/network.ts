// The networks of the field: a slow link (Chromium's network emulation over CDP) and none at all (the context's
// offline switch). Chromium keeps network conditions per CDP session, and ours override the offline switch
// Playwright sets through its own sessions: use setOffline/setOnline from here, not context.setOffline, on a
// throttled context (they tell both). Measured with Chromium 1xx: a throttled page still went online after
// context.setOffline(true), and requests a service worker made were not slowed by the page's throttle.
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

export interface NetworkConditions {
  downKbps: number;
  upKbps: number;
  /** Added to every request's round trip. */
  rttMs: number;
}

/** A rural 3G link, what collectors often have (Chrome DevTools' "Fast 3G"). */
export const FIELD_3G: NetworkConditions = { downKbps: 1600, upKbps: 750, rttMs: 150 };

type Send = (method: string, params: object) => Promise<unknown>;

interface Throttled {
  conditions: NetworkConditions | undefined;
  offline: boolean;
  /** One per throttled target: the page, and each service worker of the context. */
  targets: Send[];
  sessions: CDPSession[];
}

const throttled = new WeakMap<BrowserContext, Throttled>();

function emulate(t: Throttled, send: Send): Promise<unknown> {
  const c = t.conditions;
  return send('Network.emulateNetworkConditions', {
    offline: t.offline,
    latency: c?.rttMs ?? 0,
    // Bytes per second; -1 lifts the limit.
    downloadThroughput: c ? (c.downKbps * 1000) / 8 : -1,
    uploadThroughput: c ? (c.upKbps * 1000) / 8 : -1,
  });
}

/**
 * Slows `page` and every service worker of its context, present or future, down to `conditions` until unthrottle.
 * The service workers matter: the web app's reads of the API go through its worker (NetworkFirst cache), whose
 * requests a page's emulation does not slow. Calling it again changes the conditions.
 */
export async function throttle(page: Page, conditions: NetworkConditions = FIELD_3G): Promise<void> {
  const context = page.context();
  const existing = throttled.get(context);
  if (existing) {
    existing.conditions = conditions;
    await Promise.all(existing.targets.map((send) => emulate(existing, send)));
    return;
  }
  const browser = context.browser();
  if (!browser) throw new Error('throttle needs a browser context, not a persistent one');
  const t: Throttled = { conditions, offline: false, targets: [], sessions: [] };
  throttled.set(context, t);

  const pageSession = await context.newCDPSession(page);
  t.sessions.push(pageSession);
  const onPage: Send = (method, params) => pageSession.send(method as 'Network.enable', params);
  await onPage('Network.enable', {});
  await emulate(t, onPage);
  t.targets.push(onPage);

  // Service workers: Playwright gives no CDP session for them, so attach through the browser's session, the old
  // non-flattened way (messages wrapped in Target.sendMessageToTarget), to the workers of this context only.
  const { targetInfo } = await pageSession.send('Target.getTargetInfo');
  const browserSession = await browser.newBrowserCDPSession();
  t.sessions.push(browserSession);
  browserSession.on('Target.targetCreated', ({ targetInfo: target }) => {
    if (target.type !== 'service_worker' || target.browserContextId !== targetInfo.browserContextId) return;
    void (async () => {
      const { sessionId } = await browserSession.send('Target.attachToTarget', {
        targetId: target.targetId,
        flatten: false,
      });
      let id = 0;
      const onWorker: Send = (method, params) =>
        browserSession.send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({ id: ++id, method, params }),
        });
      await onWorker('Network.enable', {});
      await emulate(t, onWorker);
      t.targets.push(onWorker);
    })().catch(() => undefined); // a worker that stopped meanwhile needs no throttle
  });
  // Reports the workers already running as created, then each new one.
  await browserSession.send('Target.setDiscoverTargets', { discover: true });
}

/** Lifts the throttle of `throttle` (an offline context stays offline). */
export async function unthrottle(page: Page): Promise<void> {
  const t = throttled.get(page.context());
  if (!t) return;
  throttled.delete(page.context());
  t.conditions = undefined;
  await Promise.all(t.targets.map((send) => emulate(t, send).catch(() => undefined)));
  await Promise.all(t.sessions.map((s) => s.detach().catch(() => undefined)));
}

/** Cuts the network of the page's whole context (pages and service workers), as for a collector in the field. */
export async function setOffline(page: Page): Promise<void> {
  await switchNetwork(page, true);
}

/** Brings the network back, as slow as it was if it was throttled. */
export async function setOnline(page: Page): Promise<void> {
  await switchNetwork(page, false);
}

async function switchNetwork(page: Page, offline: boolean): Promise<void> {
  await page.context().setOffline(offline);
  const t = throttled.get(page.context());
  if (!t) return;
  t.offline = offline;
  await Promise.all(t.targets.map((send) => emulate(t, send)));
}

/** Runs `steps` offline, then comes back online (also when a step fails). */
export async function whileOffline<T>(page: Page, steps: () => Promise<T>): Promise<T> {
  await setOffline(page);
  try {
    return await steps();
  } finally {
    await setOnline(page);
  }
}
