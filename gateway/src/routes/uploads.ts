// Multipart uploads: one file in a field named `file`, bounded size. Small files the services take whole over gRPC
// (readUpload); project files stream to the object store as they arrive (streamUpload), so the gateway's memory
// stays flat whatever the file's size.
import { randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { ObjectStore } from '@fieldwork/service-kit';
import { problems } from '@fieldwork/service-kit/problems';

/** Largest project file (`POST project/{id}/upload/`): answered with 413 "Files are limited to 50 MB: ...". */
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** The OpenAPI request body of an upload route (multipart/form-data with one file field). */
export const uploadBodySchema = (maxBytes: number) => ({
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            format: 'binary',
            description: `The file, at most ${maxBytes / 1024 / 1024} MB (413 beyond).`,
          },
        },
      },
    },
  },
});

async function filePart(request: FastifyRequest, maxBytes: number): Promise<MultipartFile> {
  if (!request.isMultipart())
    throw problems.invalidFields({ file: ['Send the file as multipart/form-data in a field named file.'] });
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!part) throw problems.invalidFields({ file: ['No file was sent.'] });
  return part;
}

export async function readUpload(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ filename: string; content_type: string; content: Buffer }> {
  const part = await filePart(request, maxBytes);
  const content = await part.toBuffer().catch((err: unknown) => {
    if (err instanceof Error && 'code' in err && err.code === 'FST_REQ_FILE_TOO_LARGE')
      throw problems.fileTooLarge('Files', maxBytes);
    throw err;
  });
  return { filename: part.filename, content_type: part.mimetype, content };
}

/**
 * Streams the request's file to `uploads/<projectId>/<uuid>/<name>` in the object store. `check` runs once the part's
 * headers are in, before a byte is stored (access, file type), and answers the name and content type to store it
 * under; `record` runs after. A file over `maxBytes` is cut by the parser at the limit (the rest of the body is read
 * and dropped), its partial object deleted, and answered with 413 naming the limit; so is anything `record` refuses.
 */
export async function streamUpload<T>(
  request: FastifyRequest,
  objects: ObjectStore,
  projectId: number,
  maxBytes: number,
  check: (filename: string) => Promise<{ filename: string; content_type: string }>,
  record: (upload: { filename: string; object_key: string; size: number }) => Promise<T>,
): Promise<T> {
  const part = await filePart(request, maxBytes);
  const file = part.file;
  let allowed: { filename: string; content_type: string };
  try {
    allowed = await check(part.filename);
  } catch (err) {
    file.resume();
    throw err;
  }
  const key = `uploads/${projectId}/${randomUUID()}/${allowed.filename}`;
  try {
    const { size } = await objects.put(key, file, { contentType: allowed.content_type });
    if (file.truncated) throw problems.fileTooLarge('Files', maxBytes);
    return await record({ filename: part.filename, object_key: key, size });
  } catch (err) {
    file.resume();
    await objects.delete(key).catch((e: unknown) => request.log.warn({ err: e, key }, 'partial upload not deleted'));
    if (file.truncated) throw problems.fileTooLarge('Files', maxBytes);
    throw err;
  }
}
