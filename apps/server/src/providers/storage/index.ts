import path from 'node:path';
import type { Config } from '../../config';
import { createLocalStorage } from './local.storage';
import { createS3Storage } from './s3.storage';
import type { StorageDriver } from './storage';

export type { StorageDriver, StoredObject } from './storage';
export { isSafeKey } from './storage';
export { createLocalStorage };

/** The driver `STORAGE` names: the local disk under DATA_DIR/files (default) or an S3-compatible bucket. */
export function createStorage(config: Config): StorageDriver {
  return config.storage.driver === 's3'
    ? createS3Storage(config.storage)
    : createLocalStorage(path.join(config.dataDir, 'files'));
}
