import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { assertSafeKey, type StorageDriver, type StoredObject } from './storage';

/**
 * Files on the local disk under `root` (DATA_DIR/files). A key is checked twice: by its shape, and by
 * where it resolves (inside `root`). A write goes to a hidden temporary file first and is renamed into
 * place, so a reader never sees half a file (hidden names are never valid keys, so never served).
 */
export function createLocalStorage(root: string): StorageDriver {
  const base = path.resolve(root);
  const fileOf = (key: string): string => {
    assertSafeKey(key);
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new Error('Storage key resolves outside the files directory');
    return file;
  };
  const isFile = async (file: string) => {
    try {
      return (await stat(file)).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
        return false;
      throw err;
    }
  };

  return {
    name: 'local',
    async put(key, body) {
      const file = fileOf(key);
      const tmp = path.join(path.dirname(file), `.tmp-${randomUUID()}`);
      // A delete that empties the folder may remove it between mkdir and the write: make it again.
      for (let attempt = 1; ; attempt++) {
        try {
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(tmp, body);
          await rename(tmp, file);
          return;
        } catch (err) {
          await rm(tmp, { force: true });
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw err;
        }
      }
    },
    async get(key): Promise<StoredObject | null> {
      const file = fileOf(key);
      let size: number;
      try {
        const s = await stat(file);
        if (!s.isFile()) return null;
        size = s.size;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        throw err;
      }
      return { body: createReadStream(file), size };
    },
    async delete(key) {
      const file = fileOf(key);
      await rm(file, { force: true });
      // Its folder goes too when left empty (a picture's own folder, a company's uploads).
      const dir = path.dirname(file);
      if (dir !== base) await rmdir(dir).catch(() => undefined); // not empty, or gone already
    },
    exists: (key) => isFile(fileOf(key)),
    async close() {},
  };
}
