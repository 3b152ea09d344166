import path from 'node:path';
import type { Config } from '../../config';
import { createLocalStorage } from './local.storage';
import type { StorageDriver } from './storage';

export type { StorageDriver, StoredObject } from './storage';
export { isSafeKey } from './storage';
export { createLocalStorage };

/**
 * The driver `STORAGE` names: the local disk under DATA_DIR/files (default) or an S3-compatible bucket.
 * The AWS SDK is loaded only for the second (it is large, and warns about Node 20 as it loads).
 */
export async function createStorage(config: Config): Promise<StorageDriver> {
  if (config.storage.driver !== 's3') return createLocalStorage(path.join(config.dataDir, 'files'));
  const { createS3Storage } = await import('./s3.storage');
  return createS3Storage(config.storage);
}
