import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('configuration', () => {
  it('takes the defaults of design §2', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      production: false,
      seedDemo: true,
      emailPasswordSignIn: true,
      trustProxy: false,
      googleSignIn: false,
    });
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.dataDir).toBe(path.resolve('./data'));
  });

  it('names every bad variable in one message', () => {
    expect(() => parseConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' })).toThrow(ConfigError);
    try {
      parseConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' });
    } catch (err) {
      const msg = (err as Error).message;
      for (const key of ['PORT', 'DATABASE_URL', 'SEED_DEMO']) expect(msg).toContain(key);
    }
  });

  it('requires the keys and PUBLIC_URL in production, and never seeds there', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/JWT_PRIVATE_KEY[\s\S]*PUBLIC_URL/);
    const c = parseConfig({
      NODE_ENV: 'production',
      SEED_DEMO: 'on',
      PUBLIC_URL: 'https://pan.example.com/',
      JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----',
    });
    expect(c.seedDemo).toBe(false);
    expect(c.publicUrl).toBe('https://pan.example.com');
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
