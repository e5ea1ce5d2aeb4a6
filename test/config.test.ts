import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('runs on the embedded simulator when no service is configured', () => {
    const config = loadConfig({});
    expect(config.market).toBeNull();
    expect(config.simulatorSeed).toBe(42);
    expect(config.tokenBatchSize).toBe(30);
    expect(config.rateLimits['token-technicals']).toEqual({ limit: 100, windowMs: 60_000 });
    expect(config.cacheTtlMs['token-data']).toBe(10_000);
    expect(config.logLevel).toBe('info');
  });

  it('derives the WebSocket base from the REST base and keeps the key', () => {
    const config = loadConfig({ TMDS_BASE_URL: 'https://api.example.com/', TMDS_API_KEY: 'secret-key' });
    expect(config.market).toEqual({ baseUrl: 'https://api.example.com', wsUrl: 'wss://api.example.com', apiKey: 'secret-key' });
  });

  it('merges partial endpoint settings with the defaults', () => {
    const config = loadConfig({ TMDS_RATE_LIMITS: 'holders-history=30/1m', TMDS_CACHE_TTL: 'token-data=0' });
    expect(config.rateLimits).toEqual({
      'token-technicals': { limit: 100, windowMs: 60_000 },
      'holders-history': { limit: 30, windowMs: 60_000 },
    });
    expect(config.cacheTtlMs['token-data']).toBe(0);
    expect(config.cacheTtlMs['token-technicals']).toBe(60_000);
  });

  it.each([
    [{ TMDS_BASE_URL: 'ftp://x' }, 'TMDS_BASE_URL'],
    [{ TMDS_BASE_URL: 'not a url' }, 'TMDS_BASE_URL'],
    [{ TMDS_BASE_URL: 'https://x.example' }, 'TMDS_API_KEY'],
    [{ TMDS_WS_URL: 'wss://x.example' }, 'TMDS_BASE_URL'],
    [{ TMDS_TOKEN_BATCH_SIZE: '0' }, 'TMDS_TOKEN_BATCH_SIZE'],
    [{ TMDS_TOKEN_BATCH_SIZE: 'many' }, 'TMDS_TOKEN_BATCH_SIZE'],
    [{ TMDS_RATE_LIMITS: 'token-data=fast' }, 'TMDS_RATE_LIMITS'],
    [{ TMDS_CACHE_TTL: 'nowhere=10s' }, 'TMDS_CACHE_TTL'],
    [{ SIMULATOR_SEED: '-1' }, 'SIMULATOR_SEED'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('rejects %o naming %s in one line', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain(variable);
    expect(message).not.toContain('\n');
  });

  it('never repeats a secret in its error', () => {
    expect(() => loadConfig({ TMDS_BASE_URL: 'https://user:hunter2-secret@x.example', TMDS_API_KEY: 'k' })).toThrow(ConfigError);
    try {
      loadConfig({ TMDS_BASE_URL: 'https://user:hunter2-secret@x.example', TMDS_API_KEY: 'k' });
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
  });
});
