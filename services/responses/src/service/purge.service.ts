// A deleted project's purge in the responses service (an internal call of the projects service's purge job, one
// bounded batch a call): its responses with their media rows, objects (images, signatures, thumbnails) and outbox
// rows; once none is left, the objects under its prefixes that no row named, its SQL access and its messages in the
// RESPONSES stream (so that a rebuild of the results store cannot bring them back).
import type { common } from '@fieldwork/proto';
import {
  problems,
  responseSubject,
  responsesStream,
  type Logger,
  type Nats,
  type ObjectStore,
} from '@fieldwork/service-kit';
import { PurgeStore } from '../store/purge.store.js';
import type { Sql } from '@fieldwork/service-kit';
import type { SqlAccessService } from './sql-access.service.js';

export const PURGE_BATCH = 500;

/** The object-store prefixes of a project's media (media.service.ts keys). */
export const mediaPrefixes = (projectId: number) => [`images/${projectId}/`, `signatures/${projectId}/`];

export class PurgeService {
  private readonly store: PurgeStore;

  constructor(
    sql: Sql,
    private readonly files: ObjectStore,
    private readonly sqlAccess: SqlAccessService,
    private readonly nats: () => Nats | undefined,
    private readonly natsPrefix: string,
    private readonly log: Logger,
  ) {
    this.store = new PurgeStore(sql);
  }

  async purge(req: common.PurgeProjectRequest): Promise<common.PurgeCounts> {
    const projectId = req.project_id;
    if (projectId <= 0) throw problems.invalidProjectId();
    const limit = req.limit > 0 ? Math.min(req.limit, 5000) : PURGE_BATCH;
    if (req.dry_run) {
      const t = await this.store.totals(projectId);
      const objects = await this.objectCount(projectId);
      const messages = await this.streamMessages(projectId);
      return {
        counts: {
          responses: t.responses,
          media_files: t.media,
          media_objects: objects,
          media_bytes: Math.round(t.media_bytes),
          outbox: t.outbox,
          stream_messages: messages,
        },
        remaining: t.responses + t.media + t.outbox + objects + messages,
      };
    }
    const counts = { responses: 0, media_files: 0, media_objects: 0, outbox: 0 };
    const batch = await this.store.batch(projectId, limit);
    if (batch.ids.length > 0) {
      // Objects first: a crash between the two leaves rows naming missing objects, which the next call removes.
      for (const key of batch.keys) await this.files.delete(key);
      const gone = await this.store.removeBatch(projectId, batch.ids, batch.responseIds);
      Object.assign(counts, {
        responses: batch.ids.length,
        media_files: gone.media,
        media_objects: batch.keys.length,
        outbox: gone.outbox,
      });
    }
    if (batch.ids.length < limit) {
      // The last responses are gone: what no response holds any more.
      const rest = await this.store.removeRest(projectId, limit);
      for (const key of rest.keys) await this.files.delete(key);
      counts.media_files += rest.media;
      counts.outbox += rest.outbox;
      counts.media_objects += rest.keys.length;
      // Objects no row names (an upload never completed and already swept, a crash between the two above).
      let left = limit;
      for (const prefix of mediaPrefixes(projectId)) {
        for await (const key of this.files.list(prefix)) {
          if (left-- <= 0) break;
          await this.files.delete(key);
          counts.media_objects++;
        }
      }
      await this.sqlAccess.drop(projectId);
      await this.purgeStream(projectId);
    }
    const t = await this.store.totals(projectId);
    const remaining =
      t.responses + t.media + t.outbox + (await this.objectCount(projectId)) + (await this.streamMessages(projectId));
    this.log.info({ projectId, ...counts, remaining }, 'project purge batch');
    return { counts, remaining };
  }

  /** The project's messages in the RESPONSES stream. */
  private async streamMessages(projectId: number): Promise<number> {
    const nats = this.nats();
    if (!nats) throw problems.unavailable();
    const info = await nats.jsm.streams.info(responsesStream(this.natsPrefix).name, {
      subjects_filter: responseSubject(this.natsPrefix, projectId),
    });
    return Object.values(info.state.subjects ?? {}).reduce((s, n) => s + n, 0);
  }

  private async objectCount(projectId: number): Promise<number> {
    let n = 0;
    for (const prefix of mediaPrefixes(projectId)) for await (const _ of this.files.list(prefix)) n++;
    return n;
  }

  /** The project's messages in the RESPONSES stream; refused (and retried by the job) while NATS is not there. */
  private async purgeStream(projectId: number): Promise<void> {
    const nats = this.nats();
    if (!nats) throw problems.unavailable();
    await nats.jsm.streams.purge(responsesStream(this.natsPrefix).name, {
      filter: responseSubject(this.natsPrefix, projectId),
    });
  }
}
