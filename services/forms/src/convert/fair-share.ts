// How the conversion pool shares its workers and queue between workspaces (issue 30 item 6: one workspace's imports
// slowed and refused every workspace's). Pure: the pool (conversion-pool.ts) keeps the lanes and asks here.
//
// - A workspace runs at most `workspaceWorkers` conversions at once, so with two workers or more another workspace
//   always finds one free.
// - The queue is shared while nobody else waits: a workspace alone may fill it. When it is full and a workspace holding
//   less arrives, the newest waiting conversion of the workspace holding the most (running and waiting) gives up its
//   place (max-min fairness), so one workspace cannot keep the others out of the queue.
// - A freed worker goes to the workspaces in turn (round robin), not to whoever queued first.

export interface ShareLimits {
  /** Conversions running at once, every workspace together. */
  workers: number;
  /** Conversions waiting, every workspace together. */
  queue: number;
  /** Conversions one workspace runs at once. */
  workspaceWorkers: number;
}

export interface LaneLoad {
  running: number;
  waiting: number;
}

export type Admission =
  /** A worker is free for this workspace: run now. */
  | { kind: 'run' }
  /** Wait in the workspace's lane; first, when `evict` is set, refuse the newest waiting conversion of that lane. */
  | { kind: 'wait'; evict?: string }
  /**
   * No place: `overShare` when other workspaces are converting too and this one already holds at least as much as
   * they would after it (its own share is used up), else the whole pool is busy.
   */
  | { kind: 'refuse'; overShare: boolean };

const NONE: LaneLoad = { running: 0, waiting: 0 };
const held = (l: LaneLoad) => l.running + l.waiting;

/** The workspace sizes: at least one each, a workspace's running never above the pool's. */
export function shareLimits(workers: number, queue: number, workspaceWorkers: number): ShareLimits {
  const w = Math.max(1, workers);
  return { workers: w, queue: Math.max(0, queue), workspaceWorkers: Math.min(w, Math.max(1, workspaceWorkers)) };
}

/** Whether a conversion of `workspace` runs, waits (perhaps in another's place) or is refused. */
export function admit(workspace: string, lanes: ReadonlyMap<string, LaneLoad>, limits: ShareLimits): Admission {
  const own = lanes.get(workspace) ?? NONE;
  let running = 0;
  let waiting = 0;
  for (const l of lanes.values()) {
    running += l.running;
    waiting += l.waiting;
  }
  if (running < limits.workers && own.running < limits.workspaceWorkers) return { kind: 'run' };
  if (waiting < limits.queue) return { kind: 'wait' };
  let heaviest: string | undefined;
  let most = -1;
  for (const [w, l] of lanes)
    if (w !== workspace && l.waiting > 0 && held(l) > most) {
      heaviest = w;
      most = held(l);
    }
  // Taking its place leaves the other still holding at least as much as this one: fairer, never a swap of roles.
  if (heaviest !== undefined && most > held(own) + 1) return { kind: 'wait', evict: heaviest };
  const othersConverting = [...lanes].some(([w, l]) => w !== workspace && held(l) > 0);
  return { kind: 'refuse', overShare: othersConverting };
}

/**
 * The workspace whose waiting conversion takes a free worker: the first, in `order` after `last`, that waits and runs
 * fewer than its share; undefined when none may.
 */
export function nextLane(
  order: readonly string[],
  last: string | undefined,
  lanes: ReadonlyMap<string, LaneLoad>,
  limits: ShareLimits,
): string | undefined {
  if (order.length === 0) return undefined;
  const start = last === undefined ? 0 : order.indexOf(last) + 1;
  for (let i = 0; i < order.length; i++) {
    const w = order[(start + i) % order.length]!;
    const l = lanes.get(w) ?? NONE;
    if (l.waiting > 0 && l.running < limits.workspaceWorkers) return w;
  }
  return undefined;
}
