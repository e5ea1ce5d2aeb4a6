import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';

/** A chat's market data must be named; these tests are about Telegram's own settings. */
const SIMULATED = { TMDS_BASE_URL: 'simulator' };

describe('Telegram settings', () => {
  it('off without a token; long polling with one; webhook with a URL', () => {
    expect(loadConfig({}).telegram).toBeNull();
    expect(loadConfig({ ...SIMULATED, TELEGRAM_BOT_TOKEN: '123:ABC' }).telegram).toEqual({
      token: '123:ABC',
      apiRoot: null,
      webhook: null,
    });
    expect(loadConfig({ ...SIMULATED, TELEGRAM_BOT_TOKEN: '123:ABC', TELEGRAM_API_ROOT: 'http://127.0.0.1:8081/' }).telegram?.apiRoot).toBe(
      'http://127.0.0.1:8081',
    );
    expect(
      loadConfig({
        ...SIMULATED,
        TELEGRAM_BOT_TOKEN: '123:ABC',
        TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg',
        TELEGRAM_WEBHOOK_SECRET: 's3cret',
        TELEGRAM_WEBHOOK_PORT: '9000',
      }).telegram?.webhook,
    ).toEqual({ url: 'https://bot.example.com/tg', secret: 's3cret', port: 9000 });
    expect(
      loadConfig({ ...SIMULATED, TELEGRAM_BOT_TOKEN: '123:ABC', TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg' }).telegram?.webhook,
    ).toEqual({ url: 'https://bot.example.com/tg', secret: null, port: 8080 });
  });

  it('refuses a malformed token without echoing it, a webhook without a token, a bad secret or port', () => {
    let error: unknown = null;
    try {
      loadConfig({ TELEGRAM_BOT_TOKEN: 'not a token secretvalue' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain('TELEGRAM_BOT_TOKEN');
    expect(String((error as Error).message)).not.toContain('secretvalue');
    expect(() => loadConfig({ TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg' })).toThrow(/TELEGRAM_BOT_TOKEN/);
    expect(() =>
      loadConfig({ TELEGRAM_BOT_TOKEN: '1:A', TELEGRAM_WEBHOOK_URL: 'https://x.example/', TELEGRAM_WEBHOOK_SECRET: 'bad secret!' }),
    ).toThrow(/TELEGRAM_WEBHOOK_SECRET/);
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: '1:A', TELEGRAM_WEBHOOK_PORT: '70000' })).toThrow(/TELEGRAM_WEBHOOK_PORT/);
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: '1:A', TELEGRAM_API_ROOT: 'ftp://x' })).toThrow(/TELEGRAM_API_ROOT/);
  });
});
