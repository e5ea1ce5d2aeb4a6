import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('DATABASE_PATH', () => {
  it('defaults to data/tokenwatch.db on a service (data/tokenwatch-simulator.db on the built-in simulator), and takes a path as given', () => {
    const service = { TMDS_BASE_URL: 'https://data.example.com', TMDS_API_KEY: 'key' };
    expect(loadConfig(service).databasePath).toBe('data/tokenwatch.db');
    expect(loadConfig({ ...service, DATABASE_PATH: '  ' }).databasePath).toBe('data/tokenwatch.db');
    expect(loadConfig({ DATABASE_PATH: '  ' }).databasePath).toBe('data/tokenwatch-simulator.db');
    expect(loadConfig({ DATABASE_PATH: '/var/lib/tokenwatch/bot.db' }).databasePath).toBe('/var/lib/tokenwatch/bot.db');
  });

  it('refuses a path with a NUL byte, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_PATH: 'data/a\u0000b.db' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_PATH: 'data/a\u0000b.db' })).toThrow(/DATABASE_PATH/);
  });
});

describe('DATABASE_URL', () => {
  it('selects PostgreSQL with a postgres:// or postgresql:// address, and is null otherwise', () => {
    expect(loadConfig({}).databaseUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: '  ' }).databaseUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://bot:pw@db:5432/tokenwatch' }).databaseUrl).toBe('postgres://bot:pw@db:5432/tokenwatch');
    expect(loadConfig({ DATABASE_URL: ' postgresql://bot@/tokenwatch?host=/run/postgresql ' }).databaseUrl).toBe(
      'postgresql://bot@/tokenwatch?host=/run/postgresql',
    );
    // An empty DATABASE_PATH beside it is no second store (an image that sets it can be told DATABASE_PATH=).
    expect(loadConfig({ DATABASE_URL: 'postgres://db/tw', DATABASE_PATH: '' }).databaseUrl).toBe('postgres://db/tw');
  });

  it('refuses another kind of address without echoing it (it may hold a password)', () => {
    for (const url of ['mysql://bot:hunter22@db/tw', 'data/tokenwatch.db', 'postgres://', 'postgres://bot:hunter22@db/t w']) {
      const attempt = () => loadConfig({ DATABASE_URL: url });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/^Invalid configuration: DATABASE_URL must be a PostgreSQL address/);
      expect(attempt).not.toThrow(/hunter22/);
    }
  });

  it('refuses DATABASE_URL and DATABASE_PATH together in one line naming both', () => {
    const attempt = () => loadConfig({ DATABASE_URL: 'postgres://bot:hunter22@db/tw', DATABASE_PATH: 'data/tokenwatch.db' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      'Invalid configuration: DATABASE_URL and DATABASE_PATH are both set: DATABASE_URL selects PostgreSQL, DATABASE_PATH the SQLite file; set only one',
    );
  });
});
