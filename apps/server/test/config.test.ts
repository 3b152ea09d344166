import os from 'node:os';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('configuration', () => {
  it('takes the defaults of docs/design.md §2', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      nodeEnv: 'development',
      production: false,
      seedDemo: true,
      emailPasswordSignIn: true,
      trustProxy: false,
      googleSignIn: false,
    });
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.rateLimits).toEqual({
      writesPerMinute: 300,
      publicReadsPerMinute: 3_000_000,
      paymentEventsPerMinute: 600,
      signInPerAccount: 10,
      signInPerAddress: 100,
      registerPerAddress: 20,
      recoveryPerAddress: 20,
    });
    expect(c.smtpUrl).toBeUndefined();
    expect(c.google).toBeNull();
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.liveStreams).toEqual({ perUser: 20, perAddress: 1000 });
    expect(c.dbStatementTimeoutMs).toBe(15_000);
    expect(c.dbPoolMax).toBe(Math.min(20, 2 * os.availableParallelism() + 2));
  });

  it('seeds the demo into a DATABASE_URL database only when asked for', () => {
    const url = 'postgres://u@db.example.com/hornada';
    expect(parseConfig({ DATABASE_URL: url }).seedDemo).toBe(false);
    expect(parseConfig({ DATABASE_URL: url, SEED_DEMO: 'on' }).seedDemo).toBe(true);
    // The embedded database keeps the demo by default, outside production.
    expect(parseConfig({}).seedDemo).toBe(true);
    expect(parseConfig({ SEED_DEMO: 'off' }).seedDemo).toBe(false);
  });

  it('takes the proxies of TRUST_PROXY as addresses, CIDR ranges or names', () => {
    expect(parseConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(parseConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(parseConfig({ TRUST_PROXY: '192.168.0.0/255.255.0.0' }).trustProxy).toEqual(['192.168.0.0/255.255.0.0']);
  });

  it('refuses TRUST_PROXY=on and a hop count, saying to list the proxies', () => {
    for (const value of ['on', 'true', 'ON', '1', '2']) {
      expect(() => parseConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => parseConfig({ TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY: .*list the proxies' addresses or CIDR ranges instead, e\.g\. TRUST_PROXY=127\.0\.0\.1,10\.0\.0\.0\/8/,
      );
    }
  });

  it('names a bad TRUST_PROXY entry in one message with the other bad variables', () => {
    for (const [value, bad] of [
      ['10.0.0.0/33', '"10.0.0.0/33"'],
      ['127.0.0.1,10.0.0.300', '"10.0.0.300"'],
      ['proxy.example.com', '"proxy.example.com"'],
      ['127.0.0.1,', '""'],
      ['::1/129', '"::1/129"'],
    ] as const) {
      let message = '';
      try {
        parseConfig({ TRUST_PROXY: value, PORT: 'abc' });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message).toContain(`TRUST_PROXY: ${bad} is not an IP address, a CIDR range`);
      expect(message).toContain('PORT');
    }
  });

  it('reads the stream caps, the statement timeout and the pool size', () => {
    const c = parseConfig({
      LIVE_STREAMS_PER_USER: '3',
      LIVE_STREAMS_PER_ADDRESS: '50',
      DB_STATEMENT_TIMEOUT_MS: '0',
      DB_POOL_MAX: '4',
    });
    expect(c.dbPoolMax).toBe(4);
    expect(c.liveStreams).toEqual({ perUser: 3, perAddress: 50 });
    expect(c.dbStatementTimeoutMs).toBe(0);
    expect(() => parseConfig({ LIVE_STREAMS_PER_USER: '0', DB_STATEMENT_TIMEOUT_MS: '-1', DB_POOL_MAX: '1' })).toThrow(
      /LIVE_STREAMS_PER_USER[\s\S]*DB_STATEMENT_TIMEOUT_MS[\s\S]*DB_POOL_MAX/,
    );
  });

  it('reads the bounds on unpaid web orders: 3 a holder, 3 a phone, 10 an address, half a window by default, 0 for none', () => {
    expect(parseConfig({}).checkoutBounds).toEqual({
      perHolder: 3,
      perPhone: 3,
      perAddress: 10,
      windowSharePercent: 50,
    });
    const c = parseConfig({
      CHECKOUT_UNPAID_PER_HOLDER: '0',
      CHECKOUT_UNPAID_PER_PHONE: '5',
      CHECKOUT_UNPAID_PER_ADDRESS: '40',
    });
    expect(c.checkoutBounds).toEqual({ perHolder: 0, perPhone: 5, perAddress: 40, windowSharePercent: 50 });
    expect(parseConfig({ CHECKOUT_WINDOW_SHARE_PER_ADDRESS: '0' }).checkoutBounds.windowSharePercent).toBe(0);
    expect(() => parseConfig({ CHECKOUT_WINDOW_SHARE_PER_ADDRESS: '101' })).toThrow(
      /CHECKOUT_WINDOW_SHARE_PER_ADDRESS/,
    );
    expect(() => parseConfig({ CHECKOUT_UNPAID_PER_HOLDER: '-1', CHECKOUT_UNPAID_PER_ADDRESS: 'many' })).toThrow(
      /CHECKOUT_UNPAID_PER_HOLDER[\s\S]*CHECKOUT_UNPAID_PER_ADDRESS/,
    );
  });

  it('names every bad variable in one message', () => {
    expect(() => parseConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' })).toThrow(ConfigError);
    try {
      parseConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' });
    } catch (err) {
      const msg = (err as Error).message;
      for (const key of ['PORT', 'DATABASE_URL', 'SEED_DEMO']) expect(msg).toContain(key);
      expect(msg).toContain('PORT: must be a port number from 0 to 65535');
    }
  });

  it('requires the keys and PUBLIC_URL in production, and never seeds there', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/JWT_PRIVATE_KEY[\s\S]*PUBLIC_URL/);
    const c = parseConfig({
      NODE_ENV: 'production',
      SEED_DEMO: 'on',
      PAYMENT_GATEWAY: 'sandbox',
      PUBLIC_URL: 'https://pan.example.com/',
      JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----',
    });
    expect(c.seedDemo).toBe(false);
    expect(c.publicUrl).toBe('https://pan.example.com');
  });

  it('pays through the sandbox in production only when PAYMENT_GATEWAY says so (it approves payments nobody made)', () => {
    const keys = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://pan.example.com',
      JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----',
    };
    expect(() => parseConfig(keys)).toThrow(/PAYMENT_GATEWAY: required in production/);
    expect(parseConfig({ ...keys, PAYMENT_GATEWAY: 'sandbox' }).payments.gateway).toBe('sandbox');
    expect(() => parseConfig({ ...keys, PAYMENT_GATEWAY: 'wompi' })).toThrow(/WOMPI_PUBLIC_KEY: required/);
  });

  it('serves the web app through Vite only when `npm run dev` asks for it, never in production', () => {
    expect(parseConfig({}).devWeb).toBe(false);
    expect(parseConfig({ HORNADA_DEV_WEB: '1' }).devWeb).toBe(true);
    expect(() =>
      parseConfig({
        NODE_ENV: 'production',
        HORNADA_DEV_WEB: '1',
        PUBLIC_URL: 'https://pan.example.com',
        JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----',
      }),
    ).toThrow(/HORNADA_DEV_WEB: development only/);
  });

  it('moves the clock only for tests, never in production', () => {
    expect(parseConfig({}).clockOffsetMs).toBe(0);
    expect(parseConfig({ HORNADA_CLOCK_OFFSET_MS: '-86400000' }).clockOffsetMs).toBe(-86_400_000);
    expect(() => parseConfig({ HORNADA_CLOCK_OFFSET_MS: 'tomorrow' })).toThrow(/HORNADA_CLOCK_OFFSET_MS/);
    expect(() =>
      parseConfig({
        NODE_ENV: 'production',
        HORNADA_CLOCK_OFFSET_MS: '3600000',
        PUBLIC_URL: 'https://pan.example.com',
        PAYMENT_GATEWAY: 'sandbox',
        JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----',
      }),
    ).toThrow(/HORNADA_CLOCK_OFFSET_MS: tests only/);
  });

  it('names the production requirements together with every other bad variable', () => {
    let message = '';
    try {
      parseConfig({ NODE_ENV: 'production', PORT: 'abc', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    for (const key of ['PORT', 'DATABASE_URL', 'JWT_PRIVATE_KEY', 'PUBLIC_URL']) expect(message).toContain(key);
    // A bad value of a required variable is named once, for what is wrong with it.
    try {
      parseConfig({ NODE_ENV: 'production', PORT: 'abc', PUBLIC_URL: 'not a url' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/PUBLIC_URL: (?!required)/);
    expect(message.match(/PUBLIC_URL/g)).toHaveLength(1);
    expect(message).toContain('JWT_PRIVATE_KEY: required in production');
    expect(message).toContain('PORT');
  });

  it('pays through the sandbox at its own addresses by default, and through Wompi with its four keys', () => {
    expect(parseConfig({ PUBLIC_URL: 'https://pan.example/' }).payments).toEqual({
      gateway: 'sandbox',
      publicKey: undefined,
      integritySecret: undefined,
      eventsSecret: undefined,
      privateKey: undefined,
      apiUrl: 'https://pan.example/api/pasarela-de-prueba/v1',
      checkoutUrl: 'https://pan.example/pasarela-de-prueba',
    });
    const wompi = {
      PAYMENT_GATEWAY: 'wompi',
      WOMPI_PUBLIC_KEY: 'pub_test_Abc123',
      WOMPI_INTEGRITY_SECRET: 'test_integrity_abcdef',
      WOMPI_EVENTS_SECRET: 'test_events_abcdef',
      WOMPI_PRIVATE_KEY: 'prv_test_Abc123',
    };
    expect(parseConfig(wompi).payments).toMatchObject({
      gateway: 'wompi',
      apiUrl: 'https://sandbox.wompi.co/v1',
      checkoutUrl: 'https://checkout.wompi.co/p/',
    });
    expect(parseConfig({ ...wompi, WOMPI_PUBLIC_KEY: 'pub_prod_Abc123' }).payments.apiUrl).toBe(
      'https://production.wompi.co/v1',
    );
    expect(
      parseConfig({ ...wompi, WOMPI_API_URL: 'http://127.0.0.1:4000/api/pasarela-de-prueba/v1/' }).payments.apiUrl,
    ).toBe('http://127.0.0.1:4000/api/pasarela-de-prueba/v1');
  });

  it('names every missing Wompi key, and a public key that is not one', () => {
    let message = '';
    try {
      parseConfig({ PAYMENT_GATEWAY: 'wompi', WOMPI_PUBLIC_KEY: 'prv_test_x' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/WOMPI_PUBLIC_KEY: must be a Wompi public key/);
    expect(message).toMatch(/WOMPI_INTEGRITY_SECRET: required with PAYMENT_GATEWAY=wompi/);
    expect(message).toMatch(/WOMPI_EVENTS_SECRET: required with PAYMENT_GATEWAY=wompi/);
    // The search by reference (reconciliation) needs it: production with Wompi never starts without it.
    expect(message).toMatch(/WOMPI_PRIVATE_KEY: required with PAYMENT_GATEWAY=wompi/);
    const allButPrivate = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://pan.example',
      JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----',
      PAYMENT_GATEWAY: 'wompi',
      WOMPI_PUBLIC_KEY: 'pub_prod_Abc123',
      WOMPI_INTEGRITY_SECRET: 'prod_integrity_abcdef',
      WOMPI_EVENTS_SECRET: 'prod_events_abcdef',
    };
    expect(() => parseConfig(allButPrivate)).toThrow(/WOMPI_PRIVATE_KEY: required with PAYMENT_GATEWAY=wompi/);
    expect(() => parseConfig({ ...allButPrivate, WOMPI_PRIVATE_KEY: 'pub_prod_x' })).toThrow(
      /WOMPI_PRIVATE_KEY: must be a Wompi private key/,
    );
    expect(() => parseConfig({ PAYMENT_GATEWAY: 'paypal' })).toThrow(/PAYMENT_GATEWAY/);
  });

  it('exits with code 1 and one message naming a bad PORT and a bad DATABASE_URL', () => {
    const r = spawnSync(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/server/src/server.ts')], {
      env: { ...process.env, PORT: '99999', DATABASE_URL: 'mysql://localhost/x' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Invalid configuration');
    expect(r.stderr).toContain('PORT');
    expect(r.stderr).toContain('DATABASE_URL');
    expect(r.stdout).not.toContain('Hornada está lista');
  });
});
