import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import sharp, { type Metadata } from 'sharp';
import { FILE_MAX_PIXELS, IMAGE_WIDTHS, type StoredFile } from '@hornada/domain';
import { STORAGE_MESSAGES } from '@hornada/domain/messages';
import type { AppContext } from '../../context';
import type { RequestContext } from '../../request-context';
import type { DbOrTx } from '../../db';
import { files } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { isSafeKey, type StorageDriver } from '../../providers/storage';
import { writeAccess } from '../../resources/access';
import { asUser } from '../../resources/actor';
import { assertEmailVerified } from '../../resources/verified-email';

export const FILES_URL_PREFIX = '/files/';

/** A stored file's absolute URL on an origin (a shop's): what a mail, read away from the site, links to. */
export function fileUrl(origin: string, path: string): string {
  return `${origin}${FILES_URL_PREFIX}${path.split('/').map(encodeURIComponent).join('/')}`;
}
const CONTENT_TYPE = 'image/webp';

export const unsupportedType = () => new AppError(415, 'storage/unsupported-type', STORAGE_MESSAGES.unsupportedType);
export const fileTooLarge = () => new AppError(413, 'storage/file-too-large', STORAGE_MESSAGES.fileTooLarge);
export const objectNotFound = () => new AppError(404, 'storage/object-not-found', STORAGE_MESSAGES.objectNotFound);

type Format = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

/**
 * The image format the first bytes announce, or null. The name and the Content-Type a client sent are
 * never read: a PNG called `.exe` is a PNG, an HTML page called `.png` is not an image. SVG is refused
 * (it is a document that may carry scripts and links).
 */
export function sniffImage(b: Buffer): Format | null {
  const at = (offset: number, ...bytes: number[]) => bytes.every((v, i) => b[offset + i] === v);
  const ascii = (offset: number, s: string) => b.toString('latin1', offset, offset + s.length) === s;
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  if (ascii(4, 'ftyp') && (ascii(8, 'avif') || ascii(8, 'avis'))) return 'avif';
  return null;
}

/** What sharp calls each format (AVIF is read by its HEIF decoder). */
const SHARP_FORMAT: Record<Format, string> = { jpeg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp', avif: 'heif' };

/**
 * The widths to store for a picture `width` pixels wide: the storefront's srcset widths below it, and
 * the largest the picture allows (never enlarged).
 */
export function widthsFor(width: number): number[] {
  const largest = Math.min(width, IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!);
  return [...IMAGE_WIDTHS.filter((w) => w < largest), largest];
}

/** `c/abc.webp` → `c/abc-640.webp`: where each width of a stored image is (the storefront's srcSet). */
export function widthKey(path: string, width: number): string {
  return path.replace(/\.webp$/, `-${width}.webp`);
}

/** Every key an image takes in the storage: the largest at `path`, each width beside it. */
function keysOf(path: string, widths: readonly number[]): string[] {
  return [path, ...widths.map((w) => widthKey(path, w))];
}

type Encoded = { width: number; height: number; data: Buffer };

/**
 * Re-encoding a large photo takes a core and up to a few hundred megabytes for a moment: at most two at
 * a time an instance (this machine has two cores), the others wait their turn instead of piling up.
 */
const ENCODE_CONCURRENCY = 2;
let encoding = 0;
const waiting: (() => void)[] = [];

async function fewAtATime<T>(fn: () => Promise<T>): Promise<T> {
  if (encoding >= ENCODE_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else encoding++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else encoding--;
  }
}

/**
 * Re-encodes an image into WebP at each width of `widthsFor`: turned upright by its EXIF orientation,
 * in sRGB, and with no metadata at all (sharp writes none unless asked: EXIF, GPS, XMP, ICC are gone).
 * Only the first frame of an animation is kept.
 */
export async function encodeImage(input: Buffer): Promise<{ widths: number[]; images: Encoded[] }> {
  const format = sniffImage(input);
  if (!format) throw unsupportedType();
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupportedType();
  }
  if (meta.format !== SHARP_FORMAT[format] || !meta.width || !meta.height) throw unsupportedType();
  const height = meta.pageHeight ?? meta.height;
  if (meta.width * height > FILE_MAX_PIXELS) {
    throw new AppError(413, 'storage/image-too-large', STORAGE_MESSAGES.imageTooLarge);
  }
  // Orientations 5 to 8 turn the picture a quarter: its width is the stored height.
  const uprightWidth = (meta.orientation ?? 1) >= 5 ? height : meta.width;
  const widths = widthsFor(uprightWidth);
  const source = sharp(input, { limitInputPixels: FILE_MAX_PIXELS, failOn: 'error' }).rotate();
  try {
    const images = await Promise.all(
      widths.map(async (w) => {
        const { data, info } = await source
          .clone()
          .resize({ width: w, withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer({ resolveWithObject: true });
        return { width: info.width, height: info.height, data };
      }),
    );
    return { widths, images };
  } catch {
    // The header was an image's, the rest is not (truncated, corrupt).
    throw unsupportedType();
  }
}

function toStoredFile(row: typeof files.$inferSelect): StoredFile {
  return {
    path: row.path,
    url: `${FILES_URL_PREFIX}${row.path}`,
    contentType: row.contentType,
    size: row.size,
    width: row.width,
    height: row.height,
    widths: row.widths,
  };
}

/** Lists images stored outside an upload (the demo seed's pictures) as files of the company. */
export async function recordStoredFiles(
  tx: DbOrTx,
  companyId: string,
  images: readonly { path: string; bytes: number; size: number; width: number; height: number; widths: number[] }[],
  at: Date,
): Promise<void> {
  if (images.length === 0) return;
  await tx.insert(files).values(
    images.map((i) => ({
      companyId,
      path: i.path,
      bytes: i.bytes,
      size: i.size,
      contentType: CONTENT_TYPE,
      width: i.width,
      height: i.height,
      widths: i.widths,
      createdAt: at,
    })),
  );
}

/** A transaction-level lock per company: its quota is read and spent by one upload at a time. */
const lockCompany = (companyId: string) => sql`SELECT pg_advisory_xact_lock(hashtext(${`files:${companyId}`}))`;

/**
 * Uploads and deletes of a company's images (docs/product.md §7 "Other", docs/design.md §1). The bytes live in the storage
 * driver; the `files` table says which company owns each path and how many bytes it takes, for the
 * quota. Names are made here from the content (sha256 of the bytes sent), so a retried upload whose
 * answer was lost stores nothing twice and a URL never changes meaning (cached for a year).
 */
export class FilesService {
  private readonly storage: StorageDriver;
  constructor(private readonly ctx: AppContext) {
    this.storage = ctx.storage;
  }

  /** 401, 404 (another company) or 403 (a role without the grant), before any byte of the body is read. */
  private checkAccess(rc: RequestContext, action: 'create' | 'delete'): string {
    const companyId = rc.company();
    writeAccess('files', asUser(rc.caller), companyId, action);
    return companyId;
  }

  /** May the caller upload here: the permission table, and a verified e-mail (files are served from our origin). */
  async checkUpload(rc: RequestContext): Promise<string> {
    const companyId = this.checkAccess(rc, 'create');
    if (rc.caller) await assertEmailVerified(this.ctx.db, rc.caller);
    return companyId;
  }

  async upload(rc: RequestContext, input: Buffer): Promise<StoredFile> {
    const companyId = await this.checkUpload(rc);
    const path = `${companyId}/${createHash('sha256').update(input).digest('base64url').slice(0, 32)}.webp`;
    if (!isSafeKey(path)) throw objectNotFound();
    const existing = await this.find(companyId, path);
    if (existing) return toStoredFile(existing);

    const { widths, images } = await fewAtATime(() => encodeImage(input));
    const largest = images[images.length - 1]!;
    const bytes = images.reduce((sum, i) => sum + i.data.length, 0) + largest.data.length;
    const written: string[] = [];
    try {
      return await this.ctx.db.transaction(async (tx) => {
        await tx.execute(lockCompany(companyId));
        const [again] = await tx
          .select()
          .from(files)
          .where(and(eq(files.companyId, companyId), eq(files.path, path)));
        if (again) return toStoredFile(again);
        const [used] = await tx
          .select({ n: sql<string>`coalesce(sum(${files.bytes}), 0)` })
          .from(files)
          .where(eq(files.companyId, companyId));
        const quota = this.ctx.config.storageQuotaBytes;
        if (quota > 0 && Number(used?.n ?? 0) + bytes > quota) {
          throw new AppError(402, 'storage/quota-exceeded', STORAGE_MESSAGES.quotaExceeded);
        }
        const [row] = await tx
          .insert(files)
          .values({
            companyId,
            path,
            bytes,
            size: largest.data.length,
            contentType: CONTENT_TYPE,
            width: largest.width,
            height: largest.height,
            widths,
            createdAt: this.ctx.clock.now(),
          })
          .returning();
        // Stored before the row commits: a listed file is always there to download.
        const puts: [string, Buffer][] = [
          [path, largest.data],
          ...images.map((img, i): [string, Buffer] => [widthKey(path, widths[i]!), img.data]),
        ];
        for (const [key, data] of puts) {
          written.push(key);
          await this.storage.put(key, data, CONTENT_TYPE);
        }
        return toStoredFile(row!);
      });
    } catch (err) {
      // Nothing committed: take back what reached the storage.
      await Promise.allSettled(written.map((k) => this.storage.delete(k)));
      throw err;
    }
  }

  async remove(rc: RequestContext, path: string): Promise<void> {
    const companyId = this.checkAccess(rc, 'delete');
    // A path that is not a key (`..`, `%2e`, a backslash) is just not found, as is one of another company
    // (the row below is looked up by company and path).
    if (!isSafeKey(path)) throw objectNotFound();
    await this.ctx.db.transaction(async (tx) => {
      await tx.execute(lockCompany(companyId));
      const [row] = await tx
        .delete(files)
        .where(and(eq(files.companyId, companyId), eq(files.path, path)))
        .returning();
      if (!row) throw objectNotFound();
      // Before the commit: if the storage fails, the row stays and the delete may be retried.
      for (const key of keysOf(path, row.widths)) await this.storage.delete(key);
    });
  }

  private async find(companyId: string, path: string) {
    const [row] = await this.ctx.db
      .select()
      .from(files)
      .where(and(eq(files.companyId, companyId), eq(files.path, path)));
    return row;
  }
}
