import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompanyFileParams, CompanyParams, FILE_MAX_BYTES, FileKeyParams, StoredFile } from '@hornada/domain';
import { STORAGE_MESSAGES } from '@hornada/domain/messages';
import { z } from 'zod';
import { AppError, badRequest } from '../../lib/errors';
import { writeLimit } from '../../plugins/rate-limit';
import { isSafeKey } from '../../providers/storage';
import { getCompany } from '../../resources/tenant';
import { fileTooLarge, FILES_URL_PREFIX, objectNotFound, unsupportedType } from './files.service';

const tags = ['files'];

/** Room for the multipart envelope around a file of FILE_MAX_BYTES (boundaries, part headers). */
const ENVELOPE_BYTES = 64 * 1024;

/** What the stored names end in, and the type each is served with. */
const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  avif: 'image/avif',
};

/** @fastify/multipart's own errors, as the envelope of docs/design.md §3. */
function fromMultipart(err: unknown): unknown {
  const code = (err as FastifyError | undefined)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge();
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError(413, 'payload_too_large', 'Send one file only, in the field "file"');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return unsupportedMultipart();
  if (code === 'FST_PROTO_VIOLATION' || code === 'FST_NO_FORM_DATA') {
    return badRequest('The multipart body could not be read');
  }
  return err;
}

/**
 * The file's bytes, or a 413 as soon as they pass FILE_MAX_BYTES: the plugin's own toBuffer() waits for
 * the end of the part, which a client sending without Content-Length could make us wait for.
 */
async function readLimited(file: AsyncIterable<Buffer> & { truncated: boolean }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    size += chunk.length;
    if (file.truncated || size > FILE_MAX_BYTES) throw fileTooLarge();
    chunks.push(chunk);
  }
  if (file.truncated) throw fileTooLarge();
  return Buffer.concat(chunks);
}

const unsupportedMultipart = () =>
  new AppError(415, 'unsupported_media_type', 'Send the image as multipart/form-data in the field "file"');

/**
 * Uploads and deletes (`/api/companies/{companyId}/files`) and downloads (`/files/{path}`) for both
 * drivers: our server streams every file, so the bucket stays private and the headers are ours.
 */
export async function registerFileRoutes(app: FastifyInstance): Promise<void> {
  const storage = app.ctx.storage;
  const service = app.modules.files;
  const writes = writeLimit(app);

  // Multipart is understood by these routes only: anywhere else it stays a 415.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: FILE_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024, headerPairs: 50 },
      throwFileSizeLimit: true,
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/api/companies/:companyId/files',
      {
        ...writes,
        schema: {
          tags,
          summary: 'Upload an image (multipart field "file"); stored as WebP in the storefront widths',
          consumes: ['multipart/form-data'],
          params: CompanyParams,
          response: { 201: z.object({ data: StoredFile }) },
        },
        // 401 / 404 / 403 and an announced oversize body, before a byte of it is read.
        preHandler: async (req) => {
          await getCompany(app.ctx, req.params.companyId);
          await service.checkUpload(req.rc);
          if (!req.isMultipart()) throw unsupportedMultipart();
          const length = Number(req.headers['content-length']);
          if (Number.isFinite(length) && length > FILE_MAX_BYTES + ENVELOPE_BYTES) throw fileTooLarge();
        },
      },
      async (req, reply) => {
        let input: Buffer;
        try {
          const part = await req.file();
          if (!part || part.fieldname !== 'file') throw badRequest(STORAGE_MESSAGES.fileRequired);
          input = await readLimited(part.file);
        } catch (err) {
          throw fromMultipart(err);
        }
        if (input.length === 0) throw unsupportedType();
        const data = await service.upload(req.rc, input);
        return reply.status(201).send({ data });
      },
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.delete(
    '/api/companies/:companyId/files/*',
    {
      ...writes,
      schema: {
        tags,
        summary: 'Delete an uploaded image (every width)',
        params: CompanyFileParams,
        response: { 204: z.null().describe('Deleted: no content') },
      },
    },
    async (req, reply) => {
      await getCompany(app.ctx, req.params.companyId);
      await service.remove(req.rc, req.params['*']);
      return reply.status(204).send(null);
    },
  );

  // Downloads: names are made by the server and never reused for other bytes, so a year, immutable.
  r.get(`${FILES_URL_PREFIX}*`, { schema: { hide: true, params: FileKeyParams } }, async (req, reply) => {
    const key = req.params['*'];
    if (!isSafeKey(key)) throw objectNotFound();
    const object = await storage.get(key);
    if (!object) throw objectNotFound();
    const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
    const type = CONTENT_TYPES[ext];
    void reply.headers({
      'content-type': type ?? 'application/octet-stream',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      ...(type ? {} : { 'content-disposition': 'attachment' }),
      ...(object.size === undefined ? {} : { 'content-length': String(object.size) }),
    });
    return reply.send(object.body);
  });
}
