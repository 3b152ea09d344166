import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config';
import type { PaymentGateway } from './gateway';
import { createWompiGateway } from './wompi';

export * from './gateway';

/** The sandbox's development keys, generated once into DATA_DIR (never committed, never logged). */
const SandboxKeys = z.object({
  publicKey: z.string().min(1),
  integritySecret: z.string().min(8),
  eventsSecret: z.string().min(8),
  privateKey: z.string().min(8),
});
type SandboxKeys = z.infer<typeof SandboxKeys>;
/** A file written before the private key existed lacks it: it is added, the rest kept. */
const StoredSandboxKeys = SandboxKeys.extend({ privateKey: z.string().min(8).optional() });
/** A public key, the integrity secret, the events secret and the private key. */
export type GatewayKeys = SandboxKeys;

async function readOrCreateSandboxKeys(dataDir: string): Promise<SandboxKeys> {
  const file = path.join(dataDir, 'keys', 'payments-sandbox.json');
  const hex = () => randomBytes(24).toString('hex');
  const privateKey = () => `prv_test_sandbox_${hex()}`;
  try {
    const stored = StoredSandboxKeys.parse(JSON.parse(await readFile(file, 'utf8')));
    if (stored.privateKey) return { ...stored, privateKey: stored.privateKey };
    const keys = { ...stored, privateKey: privateKey() };
    await writeFile(file, JSON.stringify(keys), { mode: 0o600 });
    return keys;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const keys: SandboxKeys = {
    publicKey: `pub_test_sandbox_${hex()}`,
    integritySecret: `test_integrity_${hex()}`,
    eventsSecret: `test_events_${hex()}`,
    privateKey: privateKey(),
  };
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // 'wx' so two processes starting together keep the first one's keys.
  await writeFile(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return SandboxKeys.parse(JSON.parse(await readFile(file, 'utf8')));
}

/**
 * The configured gateway: `wompi` with its WOMPI_* keys, or the sandbox (the same protocol at the
 * app's own look-alike) with WOMPI_* secrets when given, else development keys from DATA_DIR.
 */
export async function createPaymentGateway(config: Config, fetchFn?: typeof fetch): Promise<PaymentGateway> {
  const p = config.payments;
  const keys = await paymentKeys(config);
  return createWompiGateway({
    name: p.gateway,
    ...keys,
    apiUrl: p.apiUrl,
    checkoutUrl: p.checkoutUrl,
    ...(fetchFn ? { fetch: fetchFn } : {}),
  });
}

/**
 * The gateway's keys: the WOMPI_* ones given, the rest (sandbox only) the development keys from DATA_DIR.
 * The sandbox's checkout and events (modules/payment-sandbox) use the same keys as the driver.
 */
export async function paymentKeys(config: Config): Promise<GatewayKeys> {
  const p = config.payments;
  const given = {
    publicKey: p.publicKey,
    integritySecret: p.integritySecret,
    eventsSecret: p.eventsSecret,
    privateKey: p.privateKey,
  };
  return p.gateway === 'wompi' || Object.values(given).every(Boolean)
    ? SandboxKeys.parse(given)
    : { ...(await readOrCreateSandboxKeys(config.dataDir)), ...withoutUnset(given) };
}

const withoutUnset = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
