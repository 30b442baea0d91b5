// The device's copy of responses, their pending media and the forms (IndexedDB through idb): what makes collection
// work offline. A response stays here until the server has it; a reload keeps everything.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Answers } from '@fieldwork/sampler';

/**
 * Where a response is on its way to the server (spec 001 §4). 'failed' is a response that needs attention: the server
 * refused it (or failed it three times); it stays on the device, editable, until the person sends it again.
 */
export type SyncState = 'draft' | 'pending' | 'uploading' | 'uploaded' | 'failed';

export interface LocalResponse {
  response_id: string;
  project: number;
  sampler_schema: number;
  parent_id?: string;
  site?: number;
  device_id: string;
  data: Record<string, Answers>;
  geotag?: { type: 'Point'; coordinates: [number, number]; accuracy?: number };
  completed: boolean;
  is_valid: boolean;
  time_created: string;
  time_updated: string;
  time_uploaded: string | null;
  sync: SyncState;
  /** Why it needs attention, in one line. */
  error?: string;
  /** The server's refusal by question (item id) and the rest, shown in the form when it is opened again. */
  problems?: { items: Record<string, string>; general: string[] };
  /** Failed tries in a row, which space the next ones out (backoff); server failures in a row, of which three stop the retries. */
  attempts?: number;
  server_failures?: number;
  /** Not retried before this time (ms since the epoch). */
  next_attempt_at?: number;
  /** Who saved it on this device (0 for a respondent of a link): only their session uploads it. */
  user: number;
  /** A collection link's token, for anonymous respondents. */
  token?: string;
  email?: string;
}

export interface LocalMedia {
  /** The placeholder in the answers until the server has the file: local:<uuid>. */
  local_key: string;
  response_id: string;
  project: number;
  kind: 'image' | 'signature';
  filename: string;
  blob: Blob;
}

export interface LocalForm {
  id: number;
  project: number;
  doc: unknown;
  saved_at: string;
}

interface CollectDb extends DBSchema {
  responses: { key: string; value: LocalResponse; indexes: { project: number } };
  media: { key: string; value: LocalMedia; indexes: { response: string } };
  forms: { key: number; value: LocalForm };
}

let dbp: Promise<IDBPDatabase<CollectDb>> | undefined;

let persistAsked = false;
/**
 * Asks the browser once to keep this site's storage under storage pressure (it may otherwise evict IndexedDB, and
 * with it responses not sent yet). An installed app is usually granted it; the answer changes nothing here.
 */
function askToPersist(): void {
  if (persistAsked || typeof navigator === 'undefined' || !navigator.storage?.persist) return;
  persistAsked = true;
  void navigator.storage.persist().catch(() => false);
}

function db(): Promise<IDBPDatabase<CollectDb>> {
  dbp ??= openDB<CollectDb>('fieldwork-collect', 1, {
    upgrade(d) {
      d.createObjectStore('responses', { keyPath: 'response_id' }).createIndex('project', 'project');
      d.createObjectStore('media', { keyPath: 'local_key' }).createIndex('response', 'response_id');
      d.createObjectStore('forms', { keyPath: 'id' });
    },
  });
  return dbp;
}

/** Tests open a fresh database. */
export function resetLocalStoreForTests(): void {
  dbp = undefined;
}

/**
 * Spec 001 §4: a response needs upload when it is valid (here: saved by the collector, not a draft) and its
 * time_updated is not earlier than time_uploaded; it is uploaded when time_updated is earlier than time_uploaded.
 */
export function needsUpload(r: Pick<LocalResponse, 'sync' | 'time_updated' | 'time_uploaded'>): boolean {
  if (r.sync === 'draft') return false;
  return r.time_uploaded === null || Date.parse(r.time_updated) >= Date.parse(r.time_uploaded);
}

export const localStore = {
  /** Stores a response; `durable` waits until it is on disk (a response the person was told is saved on this device). */
  async put(r: LocalResponse, durable = false): Promise<void> {
    if (durable) askToPersist();
    const tx = (await db()).transaction('responses', 'readwrite', durable ? { durability: 'strict' } : undefined);
    await tx.store.put(r);
    await tx.done;
    notify();
  },
  async get(responseId: string): Promise<LocalResponse | undefined> {
    return (await db()).get('responses', responseId);
  },
  async byProject(project: number): Promise<LocalResponse[]> {
    return (await db()).getAllFromIndex('responses', 'project', project);
  },
  async all(): Promise<LocalResponse[]> {
    return (await db()).getAll('responses');
  },
  /** Responses of `user` (or of collection links) not yet on the server: waiting, being sent, or needing attention. */
  async unsent(user?: number): Promise<LocalResponse[]> {
    return (await this.all()).filter((r) => needsUpload(r) && (user === undefined || r.user === user));
  },
  async update(responseId: string, patch: Partial<LocalResponse>): Promise<void> {
    const d = await db();
    const tx = d.transaction('responses', 'readwrite');
    const r = await tx.store.get(responseId);
    if (r) await tx.store.put({ ...r, ...patch });
    await tx.done;
    notify();
  },
  async addMedia(m: LocalMedia): Promise<void> {
    await (await db()).put('media', m);
  },
  async mediaOf(responseId: string): Promise<LocalMedia[]> {
    return (await db()).getAllFromIndex('media', 'response', responseId);
  },
  async media(localKey: string): Promise<LocalMedia | undefined> {
    return (await db()).get('media', localKey);
  },
  async deleteMedia(localKey: string): Promise<void> {
    await (await db()).delete('media', localKey);
  },
  async saveForm(f: LocalForm): Promise<void> {
    await (await db()).put('forms', f);
  },
  async form(id: number): Promise<LocalForm | undefined> {
    return (await db()).get('forms', id);
  },
};

// Screens listening for changes of the local store (the list, the sync badge).
const listeners = new Set<() => void>();
export function onLocalChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
function notify(): void {
  for (const fn of listeners) fn();
}

/** This device's id, made once. */
export function deviceId(): string {
  let id = localStorage.getItem('fw.deviceId');
  if (!id) {
    id = `web${Math.random().toString(36).slice(2, 10)}`;
    localStorage.setItem('fw.deviceId', id);
  }
  return id;
}

let counter = 0;
/** A response id: project, schema, user, device, timestamp and a counter (spec 001 §3). */
export function newResponseId(project: number, schema: number, user: number | string): string {
  counter = (counter + 1) % 1000;
  return `${project}-${schema}-${user}-${deviceId()}-${Date.now()}-${counter}`;
}
