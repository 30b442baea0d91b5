// Multipart uploads: one file, bounded size, read whole (the services take the bytes over gRPC).
import type { FastifyRequest } from 'fastify';
import { problems } from '@fieldwork/service-kit/problems';

export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ filename: string; content_type: string; content: Buffer }> {
  if (!request.isMultipart()) throw problems.invalidFields({ file: ['Send the file as multipart/form-data in a field named file.'] });
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!part) throw problems.invalidFields({ file: ['No file was sent.'] });
  const content = await part.toBuffer().catch((err: unknown) => {
    if (err instanceof Error && 'code' in err && err.code === 'FST_REQ_FILE_TOO_LARGE') throw problems.fileTooLarge('Files', maxBytes);
    throw err;
  });
  return { filename: part.filename, content_type: part.mimetype, content };
}
