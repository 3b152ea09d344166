import { z } from 'zod';
import { CompanyParams } from './common';

/**
 * An uploaded image as the API returns it (`POST /api/companies/{companyId}/files` → 201 `{data}`), and as
 * the web's uploader resolves. `path` is what records keep (a product image's `path`, a logo's `path`);
 * `url` downloads the largest stored width; `widths` are the stored widths, each at the path with `-<w>`
 * before `.webp` (the storefront's srcset); `width` and `height` are the largest one's; `size` its bytes.
 */
export const StoredFile = z
  .object({
    path: z.string().min(1).max(500),
    url: z.string().min(1),
    contentType: z.string().min(1),
    size: z.number().int().min(0),
    width: z.number().int().min(1),
    height: z.number().int().min(1),
    widths: z.array(z.number().int().min(1)),
  })
  .strict();
export type StoredFile = z.infer<typeof StoredFile>;

/** A stored file's key, the rest of the path after `/files/` (or after a company's `…/files/`). */
export const FileKeyParams = z.object({ '*': z.string().max(1000) });
export type FileKeyParams = z.infer<typeof FileKeyParams>;

/** `DELETE /api/companies/{companyId}/files/{key}`: the company and the file's key. */
export const CompanyFileParams = CompanyParams.extend(FileKeyParams.shape);
export type CompanyFileParams = z.infer<typeof CompanyFileParams>;
