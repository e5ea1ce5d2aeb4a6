import { describe, expect, it } from 'vitest';
import { readTelegramSettings } from '../../../src/chats/telegram/settings';
import { ConfigError, loadConfig } from '../../../src/config';

/** A chat's market data must be named; these tests are about Telegram's own settings. */
const SIMULATED = { TMDS_BASE_URL: 'simulator' };

/** Telegram's section, read from the environment the other settings were read from. */
const telegram = (env: Record<string, string>) => readTelegramSettings(loadConfig(env));

describe('Telegram settings', () => {
  it('off without a token; long polling with one; webhook with a URL', () => {
    expect(telegram({})).toBeNull();
    expect(telegram({ ...SIMULATED, TELEGRAM_BOT_TOKEN: '123:ABC' })).toEqual({
      token: '123:ABC',
      apiRoot: null,
      webhook: null,
    });
    expect(telegram({ ...SIMULATED, TELEGRAM_BOT_TOKEN: '123:ABC', TELEGRAM_API_ROOT: 'http://127.0.0.1:8081/' })?.apiRoot).toBe(
      'http://127.0.0.1:8081',
    );
    expect(
      telegram({
        ...SIMULATED,
        TELEGRAM_BOT_TOKEN: '123:ABC',
        TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg',
        TELEGRAM_WEBHOOK_SECRET: 's3cret',
        TELEGRAM_WEBHOOK_PORT: '9000',
      })?.webhook,
    ).toEqual({ url: 'https://bot.example.com/tg', secret: 's3cret', port: 9000 });
    expect(telegram({ ...SIMULATED, TELEGRAM_BOT_TOKEN: '123:ABC', TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg' })?.webhook).toEqual({
      url: 'https://bot.example.com/tg',
      secret: null,
      port: 8080,
    });
  });

  it('refuses a malformed token without echoing it, a webhook without a token, a bad secret or port', () => {
    let error: unknown = null;
    try {
      telegram({ TELEGRAM_BOT_TOKEN: 'not a token secretvalue' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain('TELEGRAM_BOT_TOKEN');
    expect(String((error as Error).message)).not.toContain('secretvalue');
    expect(() => telegram({ TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg' })).toThrow(/TELEGRAM_BOT_TOKEN/);
    expect(() =>
      telegram({ TELEGRAM_BOT_TOKEN: '1:A', TELEGRAM_WEBHOOK_URL: 'https://x.example/', TELEGRAM_WEBHOOK_SECRET: 'bad secret!' }),
    ).toThrow(/TELEGRAM_WEBHOOK_SECRET/);
    expect(() => telegram({ TELEGRAM_BOT_TOKEN: '1:A', TELEGRAM_WEBHOOK_PORT: '70000' })).toThrow(/TELEGRAM_WEBHOOK_PORT/);
    expect(() => telegram({ TELEGRAM_BOT_TOKEN: '1:A', TELEGRAM_API_ROOT: 'ftp://x' })).toThrow(/TELEGRAM_API_ROOT/);
  });
});
