import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('DATABASE_PATH', () => {
  it('defaults to data/tokenwatch.db, and takes a path as given', () => {
    expect(loadConfig({}).databasePath).toBe('data/tokenwatch.db');
    expect(loadConfig({ DATABASE_PATH: '  ' }).databasePath).toBe('data/tokenwatch.db');
    expect(loadConfig({ DATABASE_PATH: '/var/lib/tokenwatch/bot.db' }).databasePath).toBe('/var/lib/tokenwatch/bot.db');
  });

  it('refuses a path with a NUL byte, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_PATH: 'data/a\u0000b.db' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_PATH: 'data/a\u0000b.db' })).toThrow(/DATABASE_PATH/);
  });
});
