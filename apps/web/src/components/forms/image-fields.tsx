import { FILE_MAX_BYTES, PRODUCT_IMAGES_MAX } from '@hornada/domain/constants';
import { ArrowDown, ArrowUp, ImagePlus, Trash2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { FieldMessages, fieldAria } from './fields';
import { iconButtonClass, secondaryButtonClass } from '../ui/button';
import { inputClass } from '../auth-card';
import { ApiError } from '../../lib/api/http';
import { deleteFile, uploadFile, type StoredFile } from '../../lib/api/uploader';

/**
 * Image fields of the back office's forms (a product's images, a brand's or the bakery's logo), uploaded
 * through the file storage with progress and cancel.
 */

/** After a save: deletes the stored files the record had before and no longer uses. */
export function deleteDroppedFiles(companyId: string | null, before: readonly string[], after: readonly string[]) {
  if (!companyId) return;
  const kept = new Set(after);
  for (const path of before) if (!kept.has(path)) void deleteFile(companyId, path).catch(() => undefined);
}

/** A stored image as records keep it: a product image has its sizes too. */
export interface ImageValue {
  path: string;
  alt: string;
  width?: number;
  height?: number;
  widths?: number[];
}

/** The smallest stored width (a thumbnail), else the image itself. */
export function thumbUrl(image: { path: string; widths?: readonly number[] | undefined }): string {
  const smallest = image.widths?.length ? Math.min(...image.widths) : null;
  const path = smallest ? image.path.replace(/\.webp$/, `-${smallest}.webp`) : image.path;
  return `/files/${path}`;
}

export function Thumb({ image, size = 'size-10' }: { image: ImageValue | null | undefined; size?: string }) {
  if (!image) return <span className={`${size} shrink-0 rounded-lg bg-stone-100`} aria-hidden="true" />;
  return (
    <img
      src={thumbUrl(image)}
      alt=""
      loading="lazy"
      className={`${size} shrink-0 rounded-lg border border-stone-200 bg-stone-100 object-cover`}
    />
  );
}

const uploadMessage = (err: unknown): string =>
  err instanceof ApiError ? err.userMessage : 'No pudimos subir la imagen. Intenta de nuevo.';

interface Upload {
  key: number;
  name: string;
  progress: number;
  controller: AbortController;
}

/**
 * Uploads through the storage client with progress and cancel. Files uploaded here and then dropped (removed
 * before saving, or left behind when the form is left unsaved) are deleted; `keep` marks them saved.
 */
function useUploads(companyId: string | null) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [error, setError] = useState<string | null>(null);
  const fresh = useRef(new Set<string>());
  const counter = useRef(0);

  useEffect(() => {
    const unsaved = fresh.current;
    return () => {
      // Leaving without saving: what this form uploaded is nobody's.
      if (!companyId) return;
      for (const path of unsaved) void deleteFile(companyId, path).catch(() => undefined);
    };
  }, [companyId]);

  async function upload(file: File): Promise<StoredFile | null> {
    if (!companyId) return null;
    if (file.size > FILE_MAX_BYTES) {
      setError(`«${file.name}» pesa más de 5 MB. Elige una imagen más liviana.`);
      return null;
    }
    const key = ++counter.current;
    const controller = new AbortController();
    setUploads((list) => [...list, { key, name: file.name, progress: 0, controller }]);
    try {
      const stored = await uploadFile(companyId, file, {
        signal: controller.signal,
        onProgress: (progress) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, progress } : u))),
      });
      fresh.current.add(stored.path);
      return stored;
    } catch (err) {
      if (!controller.signal.aborted) setError(`«${file.name}»: ${uploadMessage(err)}`);
      return null;
    } finally {
      setUploads((list) => list.filter((u) => u.key !== key));
    }
  }

  /** An image taken out of the form: deleted now when only this form knew it. */
  function drop(path: string) {
    if (!companyId || !fresh.current.has(path)) return;
    fresh.current.delete(path);
    void deleteFile(companyId, path).catch(() => undefined);
  }

  /** After a save: the form's images belong to the record now. */
  function keep(paths: readonly string[]) {
    for (const path of paths) fresh.current.delete(path);
  }

  return { uploads, error, setError, upload, drop, keep };
}

export type UploadsHandle = Pick<ReturnType<typeof useUploads>, 'keep'>;

function UploadProgress({ uploads }: { uploads: readonly Upload[] }) {
  if (!uploads.length) return null;
  return (
    <ul className="space-y-2" aria-live="polite">
      {uploads.map((u) => (
        <li key={u.key} className="flex items-center gap-3 rounded-lg border border-stone-200 bg-stone-50 p-2 text-sm">
          <span className="min-w-0 flex-1">
            <span className="block truncate">Subiendo «{u.name}»…</span>
            <progress
              className="mt-1 h-2 w-full accent-amber-800"
              value={Math.round(u.progress * 100)}
              max={100}
              aria-label={`Progreso de «${u.name}»`}
            />
          </span>
          <button
            type="button"
            className={iconButtonClass}
            aria-label={`Cancelar la subida de «${u.name}»`}
            onClick={() => u.controller.abort()}
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}

function PickButton({
  id,
  label,
  multiple,
  disabled,
  onFiles,
}: {
  id: string;
  label: string;
  multiple?: boolean;
  disabled?: boolean;
  onFiles(files: File[]): void;
}) {
  return (
    <div>
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
        multiple={multiple}
        disabled={disabled}
        className="peer sr-only"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <label
        htmlFor={id}
        className={`${secondaryButtonClass} cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-amber-900 peer-disabled:cursor-not-allowed peer-disabled:opacity-60`}
      >
        <ImagePlus className="size-4" aria-hidden="true" />
        {label}
      </label>
    </div>
  );
}

/** One image (a brand's logo, a collection's picture): upload, replace, describe, remove. */
export function SingleImageField({
  companyId,
  label,
  value,
  onChange,
  error,
  uploadsRef,
}: {
  companyId: string | null;
  label: string;
  value: ImageValue | null;
  onChange(value: ImageValue | null): void;
  error?: string | undefined;
  uploadsRef?: React.RefObject<UploadsHandle | null>;
}) {
  const id = useId();
  const uploads = useUploads(companyId);
  if (uploadsRef) uploadsRef.current = uploads;
  const replace = async (files: File[]) => {
    uploads.setError(null);
    const file = files[0];
    if (!file) return;
    const stored = await uploads.upload(file);
    if (!stored) return;
    if (value) uploads.drop(value.path);
    onChange({ path: stored.path, alt: value?.alt ?? '' });
  };
  return (
    <fieldset className="space-y-3">
      <legend className="font-medium text-stone-800">{label}</legend>
      {value ? (
        <div className="flex flex-wrap items-start gap-4">
          <Thumb image={value} size="size-24" />
          <div className="min-w-0 flex-1 basis-52">
            <label htmlFor={`${id}-alt`} className="font-medium text-stone-800">
              Texto alternativo <span className="font-normal text-stone-600">(describe la imagen)</span>
            </label>
            <input
              id={`${id}-alt`}
              value={value.alt}
              maxLength={300}
              onChange={(event) => onChange({ ...value, alt: event.target.value })}
              {...fieldAria(`${id}-alt`, null, error)}
              className={inputClass}
            />
            <FieldMessages id={`${id}-alt`} error={error} />
          </div>
          <div className="flex gap-2">
            <PickButton id={`${id}-file`} label="Cambiar" disabled={uploads.uploads.length > 0} onFiles={replace} />
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => {
                uploads.drop(value.path);
                onChange(null);
              }}
            >
              <Trash2 className="size-4" aria-hidden="true" />
              Quitar
            </button>
          </div>
        </div>
      ) : uploads.uploads.length ? null : (
        <PickButton id={`${id}-file`} label="Subir imagen" onFiles={replace} />
      )}
      <UploadProgress uploads={uploads.uploads} />
      <p className="text-sm text-stone-600">JPG, PNG, WebP, GIF o AVIF de hasta 5 MB.</p>
      {uploads.error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {uploads.error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A product's photos: several uploads at once, alt text for each, order (the first is the main one), remove. */
export function ImagesField({
  companyId,
  value,
  onChange,
  errors,
  uploadsRef,
}: {
  companyId: string | null;
  value: ImageValue[];
  onChange(value: ImageValue[]): void;
  /** Problems by image index (their alt text). */
  errors?: readonly (string | undefined)[];
  uploadsRef?: React.RefObject<UploadsHandle | null>;
}) {
  const id = useId();
  const uploads = useUploads(companyId);
  if (uploadsRef) uploadsRef.current = uploads;
  // Uploads finish one by one: each adds to the latest list, not to the list of when it started.
  const latest = useRef(value);
  latest.current = value;
  const room = PRODUCT_IMAGES_MAX - value.length - uploads.uploads.length;

  const add = async (files: File[]) => {
    uploads.setError(null);
    if (files.length > room) {
      uploads.setError(`Puedes tener hasta ${PRODUCT_IMAGES_MAX} fotos por producto.`);
    }
    await Promise.all(
      files.slice(0, Math.max(0, room)).map(async (file) => {
        const stored = await uploads.upload(file);
        if (!stored) return;
        const image: ImageValue = {
          path: stored.path,
          alt: '',
          width: stored.width,
          height: stored.height,
          widths: stored.widths,
        };
        latest.current = [...latest.current, image];
        onChange(latest.current);
      }),
    );
  };

  const move = (from: number, to: number) => {
    const next = [...value];
    const [item] = next.splice(from, 1);
    if (item) next.splice(to, 0, item);
    onChange(next);
  };

  return (
    <div className="space-y-3">
      {value.length === 0 ? <p className="text-stone-600">Este producto aún no tiene fotos.</p> : null}
      <ol className="space-y-3">
        {value.map((image, index) => {
          const altId = `${id}-alt-${index}`;
          return (
            <li key={image.path} className="flex flex-wrap items-start gap-3 rounded-xl border border-stone-200 p-3">
              <Thumb image={image} size="size-20" />
              <div className="min-w-0 flex-1 basis-48">
                <label htmlFor={altId} className="font-medium text-stone-800">
                  {index === 0 ? 'Foto principal: texto alternativo' : `Foto ${index + 1}: texto alternativo`}
                </label>
                <input
                  id={altId}
                  value={image.alt}
                  maxLength={300}
                  placeholder="Qué se ve en la foto"
                  onChange={(event) =>
                    onChange(value.map((v, i) => (i === index ? { ...v, alt: event.target.value } : v)))
                  }
                  {...fieldAria(altId, null, errors?.[index])}
                  className={inputClass}
                />
                <FieldMessages id={altId} error={errors?.[index]} />
              </div>
              <div className="flex gap-1">
                <button
                  type="button"
                  className={iconButtonClass}
                  aria-label={`Subir la foto ${index + 1}`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                >
                  <ArrowUp className="size-4" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className={iconButtonClass}
                  aria-label={`Bajar la foto ${index + 1}`}
                  disabled={index === value.length - 1}
                  onClick={() => move(index, index + 1)}
                >
                  <ArrowDown className="size-4" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className={`${iconButtonClass} text-red-700 hover:bg-red-50`}
                  aria-label={`Quitar la foto ${index + 1}`}
                  onClick={() => {
                    uploads.drop(image.path);
                    onChange(value.filter((_, i) => i !== index));
                  }}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <UploadProgress uploads={uploads.uploads} />
      <div className="flex flex-wrap items-center gap-3">
        <PickButton id={`${id}-file`} label="Agregar fotos" multiple disabled={room <= 0} onFiles={add} />
        <p className="text-sm text-stone-600">
          Hasta {PRODUCT_IMAGES_MAX} fotos de 5 MB. La primera es la que se ve en la tienda.
        </p>
      </div>
      {uploads.error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {uploads.error}
        </p>
      ) : null}
    </div>
  );
}
