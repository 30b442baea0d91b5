// Images and signatures of responses (spec 001 §7 Uploads, §9 image settings): a presigned upload straight to the
// object store, then its completion, which checks size and type from the stored bytes and makes a 100x100
// thumbnail of images. Keys: images/{project}/{record}/{id}-{name} and signatures/{project}/{record}/{id}-{name}.
import { randomUUID } from 'node:crypto';
import type { responses } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import sharp from 'sharp';
import { ResponseStore, type MediaRow } from '../store/response.store.js';
import type { AccessCache, ResponseAccess } from './access.js';
import type { Ctx, ResponsesDeps } from './deps.js';
import { UPLOAD_MESSAGES } from './upload.service.js';

export const MEDIA_LIMITS = {
  image: { maxBytes: 15 * 1024 * 1024, types: ['image/jpeg', 'image/png', 'image/webp'] },
  signature: { maxBytes: 2 * 1024 * 1024, types: ['image/png', 'image/jpeg', 'image/webp'] },
} as const;
export const THUMBNAIL_SIZE = 100;
const UPLOAD_URL_TTL_S = 15 * 60;
const READ_URL_TTL_S = 60 * 60;

export const MEDIA_MESSAGES = {
  kind: 'The kind must be image or signature.',
  type: (types: readonly string[]) => `Upload a file of type ${types.join(', ')}.`,
  size: (max: number) => `The file is larger than ${Math.round(max / 1024 / 1024)} MB.`,
  empty: 'The file is empty.',
  missing: 'The file has not been uploaded yet.',
  content: 'The file is not the image its type says.',
  record: 'The response id must start with the project id.',
  declared: 'The file is not the size that was declared.',
} as const;

/** Whether the caller asked for this file: the same person, or a respondent of the same collection link. */
const askedBy = (m: Pick<MediaRow, 'created_by' | 'survey_id'>, a: ResponseAccess) =>
  a.anonymous ? m.created_by === null && m.survey_id === a.surveyId : m.created_by === a.userId;

/** The type the first bytes say, or undefined. */
export function sniffImageType(head: Buffer): string | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (
    head.length >= 12 &&
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

/** A file name safe in an object key: letters, digits, dot, dash and underscore, at most 80. */
export function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(-80);
  return clean === '' ? 'file' : clean;
}

export class MediaService {
  private readonly store: ResponseStore;

  constructor(
    private readonly deps: ResponsesDeps,
    private readonly access: AccessCache,
  ) {
    this.store = new ResponseStore(deps.sql);
  }

  async create(req: responses.MediaUploadRequest, ctx: Ctx): Promise<responses.MediaUpload> {
    const a = await this.access.get(req.caller, req.project_id, ctx);
    if (!a.can('collect') && !a.can('edit')) throw problems.forbidden();
    if (a.projectState === 'D') throw problems.invalidProjectId();
    if (a.projectState === 'F' && !a.can('editCompleted')) throw problems.invalid(UPLOAD_MESSAGES.finalized);
    if (req.kind !== 'image' && req.kind !== 'signature') throw problems.invalidFields({ kind: [MEDIA_MESSAGES.kind] });
    const limits = MEDIA_LIMITS[req.kind];
    if (!(limits.types as readonly string[]).includes(req.content_type))
      throw problems.invalidFields({ content_type: [MEDIA_MESSAGES.type(limits.types)] });
    if (req.size <= 0) throw problems.invalidFields({ size: [MEDIA_MESSAGES.empty] });
    if (req.size > limits.maxBytes) throw problems.invalidFields({ size: [MEDIA_MESSAGES.size(limits.maxBytes)] });
    if (!req.response_id.startsWith(`${req.project_id}-`) || !/^[\w.:-]{1,200}$/.test(req.response_id)) {
      throw problems.invalidFields({ response_id: [MEDIA_MESSAGES.record] });
    }
    await this.mayAttach(a, req.response_id, req.project_id, req.size);
    const mediaId = randomUUID();
    const record = req.response_id.replace(/:/g, '_');
    const key = `${req.kind === 'image' ? 'images' : 'signatures'}/${req.project_id}/${record}/${mediaId}-${safeName(req.filename)}`;
    await this.store.addMedia({
      media_id: mediaId,
      response_id: req.response_id,
      project_id: req.project_id,
      kind: req.kind,
      object_key: key,
      filename: req.filename.slice(0, 255),
      content_type: req.content_type,
      declared_size: req.size,
      created_by: a.anonymous ? null : a.userId,
      survey_id: a.anonymous ? a.surveyId : null,
    });
    // The fs store holds the upload to this type and size; with S3 the completion checks them.
    const url = await this.deps.files.presignPut(key, {
      expiresInSeconds: UPLOAD_URL_TTL_S,
      contentType: req.content_type,
      size: req.size,
    });
    return {
      media_id: mediaId,
      key,
      upload_url: url,
      expires: new Date(Date.now() + UPLOAD_URL_TTL_S * 1000).toISOString(),
    };
  }

  async complete(req: responses.MediaDoneRequest, ctx: Ctx): Promise<responses.MediaInfo> {
    const a = await this.access.get(req.caller, req.project_id, ctx);
    if (!a.can('collect') && !a.can('edit')) throw problems.forbidden();
    const m = await this.store.media(req.media_id);
    if (!m || m.project_id !== req.project_id) throw problems.notFound();
    if (!askedBy(m, a) && (a.anonymous || !a.can('editCompleted'))) throw problems.notFound();
    if (m.status === 'pending') await this.check(m);
    return this.info((await this.store.media(m.media_id))!);
  }

  /**
   * Files attach to the caller's own response only: a stored response's creator (or those who edit others'
   * responses); a response not stored yet belongs to whoever asked for its first file. A collection link's
   * respondent attaches files to a response not stored yet, within the link's quota.
   */
  private async mayAttach(a: ResponseAccess, responseId: string, projectId: number, size: number): Promise<void> {
    const stored = await this.store.byResponseId(responseId);
    if (stored && stored.project_id !== projectId)
      throw problems.invalidFields({ response_id: [UPLOAD_MESSAGES.otherProject] });
    const editsOthers = !a.anonymous && a.can('editCompleted');
    if (stored && (a.anonymous || (stored.user_id !== a.userId && !editsOthers))) throw problems.forbidden();
    if (!stored && !editsOthers && (await this.store.mediaOf(responseId)).some((m) => !askedBy(m, a)))
      throw problems.forbidden();
    if (a.anonymous) {
      const used = await this.store.linkUsage(a.surveyId);
      if (used.mediaBytes + size > this.deps.linkLimits.mediaBytes) throw problems.linkQuota('files');
      // Slots asked for and never filled hold the link's quota until they expire (MEDIA_PENDING_TTL_S): a few at a
      // time per link is what respondents' devices use; a flood of them is refused, not kept for an hour.
      if (used.pendingMedia >= this.deps.linkLimits.pendingMedia)
        throw problems.linkQuota('files waiting to be uploaded');
    }
  }

  /** Checks the stored bytes (size, type from the content), makes the thumbnail, marks the media uploaded. */
  private async check(m: MediaRow): Promise<void> {
    const files = this.deps.files;
    const stat = await files.stat(m.object_key);
    if (!stat) throw problems.invalidFields({ media_id: [MEDIA_MESSAGES.missing] });
    const limits = MEDIA_LIMITS[m.kind];
    const refuse = async (field: string, message: string) => {
      await files.delete(m.object_key);
      throw problems.invalidFields({ [field]: [message] });
    };
    if (stat.size > limits.maxBytes) await refuse('size', MEDIA_MESSAGES.size(limits.maxBytes));
    if (stat.size === 0) await refuse('size', MEDIA_MESSAGES.empty);
    if (stat.size !== m.declared_size) await refuse('size', MEDIA_MESSAGES.declared);
    const bytes = await readAll(await files.get(m.object_key), limits.maxBytes);
    const type = sniffImageType(bytes);
    if (!type || !(limits.types as readonly string[]).includes(type))
      await refuse('content_type', MEDIA_MESSAGES.content);
    let thumb: Buffer | undefined;
    try {
      thumb = await sharp(bytes, { limitInputPixels: 100_000_000 })
        .rotate()
        .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'cover' })
        .jpeg({ quality: 80 })
        .toBuffer();
    } catch {
      // Not decodable (truncated, or only the magic bytes of an image).
      await refuse('content_type', MEDIA_MESSAGES.content);
    }
    const thumbnailKey = m.object_key.replace(/\/([^/]+)$/, `/thumbnails/${THUMBNAIL_SIZE}x${THUMBNAIL_SIZE}-$1.jpg`);
    await files.put(thumbnailKey, thumb!, { contentType: 'image/jpeg' });
    await this.store.markMediaUploaded(m.media_id, stat.size, thumbnailKey);
  }

  private async info(m: MediaRow): Promise<responses.MediaInfo> {
    const pending = await this.store.pendingMedia(m.response_id);
    const url = await this.deps.files.presignGet(m.object_key, { expiresInSeconds: READ_URL_TTL_S });
    const thumb = m.thumbnail_key
      ? await this.deps.files.presignGet(m.thumbnail_key, { expiresInSeconds: READ_URL_TTL_S })
      : '';
    return {
      media_id: m.media_id,
      key: m.object_key,
      url,
      thumbnail_url: thumb,
      size: m.size ?? 0,
      content_type: m.content_type,
      media_uploading_count: pending.image,
      signature_uploading_count: pending.signature,
    };
  }
}

async function readAll(stream: NodeJS.ReadableStream, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const c of stream) {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(c as string);
    total += b.length;
    if (total > max) throw problems.invalidFields({ size: [MEDIA_MESSAGES.size(max)] });
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}
