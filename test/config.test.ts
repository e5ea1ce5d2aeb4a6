import { describe, expect, it } from 'vitest';
import { loadSettings } from '../src/chats/platforms';
import { readDiscordSettings } from '../src/chats/discord/settings';
import { readTelegramSettings } from '../src/chats/telegram/settings';
import { ConfigError, loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('runs on the embedded simulator when no service is configured', () => {
    const config = loadConfig({});
    expect(config.market).toBeNull();
    expect(config.simulatorSeed).toBe(42);
    expect(config.tokenBatchSize).toBe(30);
    expect(config.rateLimits['token-technicals']).toEqual({ limit: 100, windowMs: 60_000 });
    expect(config.cacheTtlMs['token-data']).toBe(10_000);
    expect(config.rateLimitMaxWaitMs).toBe(30_000);
    expect(config.logLevel).toBe('info');
  });

  describe('where market data comes from', () => {
    const discord = {
      DISCORD_TOKEN: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfakeX.abcdefghijklmnopqrstuvwxyz0123456789',
      DISCORD_APP_ID: '1100000000000000001',
    };
    const telegram = { TELEGRAM_BOT_TOKEN: '123456789:AAsecret-token' };

    it('a chat token without TMDS_BASE_URL stops start-up with one line naming both ways out, and never the token', () => {
      for (const chat of [discord, telegram, { ...discord, ...telegram }]) {
        let error: unknown = null;
        try {
          loadSettings(chat);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(ConfigError);
        const message = (error as ConfigError).message;
        expect(message).not.toContain('\n');
        expect(message).toMatch(/^Invalid configuration: TMDS_BASE_URL /);
        expect(message).toContain("the service's address (with TMDS_API_KEY)");
        expect(message).toContain('TMDS_BASE_URL=simulator');
        expect(message).not.toContain('AAsecret-token');
        expect(message).not.toContain('GfakeX');
      }
    });

    it('TMDS_BASE_URL=simulator asks for the simulator by name, for chats and the console alike, with its seed', () => {
      const chats = loadSettings({ ...discord, ...telegram, TMDS_BASE_URL: 'simulator', SIMULATOR_SEED: '7' });
      expect(chats.market).toBeNull();
      expect(chats.simulatorSeed).toBe(7);
      expect(readTelegramSettings(chats)?.token).toBe(telegram.TELEGRAM_BOT_TOKEN);
      expect(readDiscordSettings(chats.env)?.token).toBe(discord.DISCORD_TOKEN);
      expect(loadConfig({ TMDS_BASE_URL: ' Simulator ' }).market).toBeNull();
      // A key left in .env from a real service does no harm; a stream address would contradict it.
      expect(loadConfig({ TMDS_BASE_URL: 'simulator', TMDS_API_KEY: 'k' }).market).toBeNull();
      expect(() => loadConfig({ TMDS_BASE_URL: 'simulator', TMDS_WS_URL: 'wss://x.example' })).toThrow(
        /^Invalid configuration: TMDS_WS_URL must be unset with TMDS_BASE_URL=simulator$/,
      );
    });

    it("asks for TMDS_BASE_URL with the switch variables its caller names: every platform's, as the registry lists them", () => {
      expect(() => loadConfig({ ECHO_NETWORK: 'room' }, { chatTokens: ['DISCORD_TOKEN', 'TELEGRAM_BOT_TOKEN', 'ECHO_NETWORK'] })).toThrow(
        /^Invalid configuration: TMDS_BASE_URL is required with DISCORD_TOKEN, TELEGRAM_BOT_TOKEN or ECHO_NETWORK: /,
      );
      expect(() => loadSettings(discord)).toThrow(
        /^Invalid configuration: TMDS_BASE_URL is required with DISCORD_TOKEN or TELEGRAM_BOT_TOKEN: /,
      );
      // Blank is unset; and the general settings alone ask nothing of a chat's switch.
      expect(loadConfig({ DISCORD_TOKEN: ' ' }, { chatTokens: ['DISCORD_TOKEN'] }).market).toBeNull();
      expect(loadConfig(discord).market).toBeNull();
    });

    it("reads no platform's section in the general settings: each platform reads its own, at start with the rest", () => {
      const wrong = { TMDS_BASE_URL: 'simulator', DISCORD_TOKEN: 'not a token', TELEGRAM_WEBHOOK_PORT: '70000' };
      expect(loadConfig(wrong).env).toBe(wrong);
      expect(() => loadSettings(wrong)).toThrow(/^Invalid configuration: DISCORD_TOKEN must be the bot token/);
      expect(() => loadSettings({ ...wrong, DISCORD_TOKEN: '' })).toThrow(/^Invalid configuration: TELEGRAM_WEBHOOK_PORT must be/);
    });

    it('a chat token with the service address runs on the service', () => {
      const config = loadSettings({ ...telegram, TMDS_BASE_URL: 'https://api.example.com', TMDS_API_KEY: 'k' });
      expect(config.market).toEqual({ baseUrl: 'https://api.example.com', wsUrl: 'wss://api.example.com', apiKey: 'k' });
    });
  });

  it('reads durations with a unit, and 0 alone without one', () => {
    const config = loadConfig({
      TMDS_CACHE_TTL: 'token-data=500ms,token-technicals=2m,holders-history=1h,trades-history=0,chart-history=15s',
      TMDS_RATE_LIMITS: 'token-technicals=90/1m',
      TMDS_RATE_LIMIT_MAX_WAIT: '45s',
    });
    expect(config.cacheTtlMs).toMatchObject({
      'token-data': 500,
      'token-technicals': 120_000,
      'holders-history': 3_600_000,
      'trades-history': 0,
      'chart-history': 15_000,
    });
    expect(config.rateLimits['token-technicals']).toEqual({ limit: 90, windowMs: 60_000 });
    expect(config.rateLimitMaxWaitMs).toBe(45_000);
    expect(loadConfig({ TMDS_RATE_LIMIT_MAX_WAIT: '0' }).rateLimitMaxWaitMs).toBe(0);
  });

  it('refuses a duration without a unit, saying what it expects', () => {
    expect(() => loadConfig({ TMDS_CACHE_TTL: 'token-data=500' })).toThrow(
      /^Invalid configuration: TMDS_CACHE_TTL must be .*a duration with a unit, ms, s, m or h .*; "token-data=500" is not$/,
    );
    expect(() => loadConfig({ TMDS_RATE_LIMIT_MAX_WAIT: '30' })).toThrow(
      /^Invalid configuration: TMDS_RATE_LIMIT_MAX_WAIT must be a duration with a unit, ms, s, m or h/,
    );
  });

  it("reads whole numbers written in plain digits, up to 2^32 − 1 for the seed as the simulator's --seed", () => {
    const config = loadConfig({ TMDS_TOKEN_BATCH_SIZE: ' 12 ', SIMULATOR_SEED: '4294967295', TMDS_MAX_RETRIES: '0' });
    expect(config).toMatchObject({ tokenBatchSize: 12, simulatorSeed: 2 ** 32 - 1, maxRetries: 0 });
    expect(loadConfig({ SIMULATOR_SEED: '0' }).simulatorSeed).toBe(0);
    expect(loadConfig({}).simulatorStyle).toBe('spec');
    expect(loadConfig({ SIMULATOR_STYLE: ' Real ' }).simulatorStyle).toBe('real');
  });

  it('reads the streams’ protocol and the REST polls’ pace, auto and 15 s by default', () => {
    expect(loadConfig({})).toMatchObject({ streamProtocol: 'auto', simulatorProtocol: 'spec', tokenPollMs: 15_000, walletPollMs: 15_000 });
    const config = loadConfig({
      TMDS_PROTOCOL: ' Vendor ',
      SIMULATOR_PROTOCOL: 'vendor',
      TOKEN_POLL_INTERVAL: '5s',
      WALLET_POLL_INTERVAL: '1m',
    });
    expect(config).toMatchObject({ streamProtocol: 'vendor', simulatorProtocol: 'vendor', tokenPollMs: 5_000, walletPollMs: 60_000 });
    expect(loadConfig({ TMDS_PROTOCOL: 'spec' }).streamProtocol).toBe('spec');
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
    [{ TMDS_TOKEN_BATCH_SIZE: '1e1' }, 'TMDS_TOKEN_BATCH_SIZE'],
    [{ TMDS_TOKEN_BATCH_SIZE: '0x10' }, 'TMDS_TOKEN_BATCH_SIZE'],
    [{ TMDS_TOKEN_BATCH_SIZE: '12.0' }, 'TMDS_TOKEN_BATCH_SIZE'],
    [{ TMDS_TOKEN_BATCH_SIZE: '+5' }, 'TMDS_TOKEN_BATCH_SIZE'],
    [{ TMDS_CONNECT_TIMEOUT_MS: '5e3' }, 'TMDS_CONNECT_TIMEOUT_MS'],
    [{ TMDS_TIMEOUT_MS: '1e4' }, 'TMDS_TIMEOUT_MS'],
    [{ TMDS_MAX_RETRIES: '3.' }, 'TMDS_MAX_RETRIES'],
    [{ TMDS_RATE_LIMITS: 'token-data=fast' }, 'TMDS_RATE_LIMITS'],
    [{ TMDS_RATE_LIMITS: 'token-technicals=100/60' }, 'TMDS_RATE_LIMITS'],
    [{ TMDS_RATE_LIMITS: 'token-technicals=1e2/60s' }, 'TMDS_RATE_LIMITS'],
    [{ TMDS_CACHE_TTL: 'nowhere=10s' }, 'TMDS_CACHE_TTL'],
    [{ TMDS_CACHE_TTL: 'token-data=500' }, 'TMDS_CACHE_TTL'],
    [{ TMDS_CACHE_TTL: 'token-data=10x' }, 'TMDS_CACHE_TTL'],
    [{ TMDS_CACHE_TTL: 'token-data=1.5ms' }, 'TMDS_CACHE_TTL'],
    [{ TMDS_RATE_LIMIT_MAX_WAIT: '30' }, 'TMDS_RATE_LIMIT_MAX_WAIT'],
    [{ TMDS_RATE_LIMIT_MAX_WAIT: '11m' }, 'TMDS_RATE_LIMIT_MAX_WAIT'],
    [{ TMDS_RATE_LIMIT_MAX_WAIT: 'soon' }, 'TMDS_RATE_LIMIT_MAX_WAIT'],
    [{ SIMULATOR_SEED: '-1' }, 'SIMULATOR_SEED'],
    [{ SIMULATOR_STYLE: 'live' }, 'SIMULATOR_STYLE'],
    [{ TMDS_PROTOCOL: 'real' }, 'TMDS_PROTOCOL'],
    [{ SIMULATOR_PROTOCOL: 'auto' }, 'SIMULATOR_PROTOCOL'],
    [{ TOKEN_POLL_INTERVAL: '500ms' }, 'TOKEN_POLL_INTERVAL'],
    [{ WALLET_POLL_INTERVAL: '11m' }, 'WALLET_POLL_INTERVAL'],
    [{ SIMULATOR_SEED: '4294967296' }, 'SIMULATOR_SEED'],
    [{ SIMULATOR_SEED: '1e3' }, 'SIMULATOR_SEED'],
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

  it('reads RECONCILE_CRON, every minute by default, and refuses what is not cron', () => {
    expect(loadConfig({}).reconcileCron).toBe('* * * * *');
    expect(loadConfig({ RECONCILE_CRON: '*/5 * * * *' }).reconcileCron).toBe('*/5 * * * *');
    expect(loadConfig({ RECONCILE_CRON: '30 * * * * *' }).reconcileCron).toBe('30 * * * * *');
    expect(() => loadConfig({ RECONCILE_CRON: 'every minute' })).toThrow(/RECONCILE_CRON must be a cron expression/);
  });

  it('never repeats a secret in its error', () => {
    expect(() => loadConfig({ TMDS_BASE_URL: 'https://user:hunter2-secret@x.example', TMDS_API_KEY: 'k' })).toThrow(ConfigError);
    try {
      loadConfig({ TMDS_BASE_URL: 'https://user:hunter2-secret@x.example', TMDS_API_KEY: 'k' });
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
  });

  it('reads the bounds that hold against a misbehaving service, with sizes in B, KB or MB', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      callDeadlineMs: 30_000,
      bodyLimits: {},
      cacheMaxBytes: 48 * 1024 * 1024,
      wsMaxFrameBytes: 1024 * 1024,
      wsQueueMaxBytes: 4 * 1024 * 1024,
    });
    const set = loadConfig({
      TMDS_CALL_DEADLINE: '45s',
      TMDS_BODY_LIMITS: 'chart-history=16MB, holders-history=512KB',
      TMDS_CACHE_MAX_SIZE: '8MB',
      TMDS_WS_MAX_FRAME: '256KB',
      TMDS_WS_QUEUE_MAX_SIZE: '1MB',
    });
    expect(set).toMatchObject({
      callDeadlineMs: 45_000,
      bodyLimits: { 'chart-history': 16 * 1024 * 1024, 'holders-history': 512 * 1024 },
      cacheMaxBytes: 8 * 1024 * 1024,
      wsMaxFrameBytes: 256 * 1024,
      wsQueueMaxBytes: 1024 * 1024,
    });
    expect(() => loadConfig({ TMDS_WS_MAX_FRAME: '1048576' })).toThrow(/TMDS_WS_MAX_FRAME must be a whole number with a unit, B, KB or MB/);
    expect(() => loadConfig({ TMDS_BODY_LIMITS: 'chart-history=lots' })).toThrow(/TMDS_BODY_LIMITS/);
    expect(() => loadConfig({ TMDS_CACHE_MAX_SIZE: '2GB' })).toThrow(/TMDS_CACHE_MAX_SIZE/);
  });

  it('reads TMDS_WS_SUBSCRIPTIONS_PER_SOCKET: auto by default, or a whole number from 1 to 1000', () => {
    expect(loadConfig({}).wsSubscriptionsPerSocket).toBe('auto');
    expect(loadConfig({ TMDS_WS_SUBSCRIPTIONS_PER_SOCKET: ' AUTO ' }).wsSubscriptionsPerSocket).toBe('auto');
    expect(loadConfig({ TMDS_WS_SUBSCRIPTIONS_PER_SOCKET: '1' }).wsSubscriptionsPerSocket).toBe(1);
    expect(loadConfig({ TMDS_WS_SUBSCRIPTIONS_PER_SOCKET: '250' }).wsSubscriptionsPerSocket).toBe(250);
    for (const wrong of ['0', '1001', '1e2', 'many', '-1']) {
      expect(() => loadConfig({ TMDS_WS_SUBSCRIPTIONS_PER_SOCKET: wrong }), wrong).toThrow(
        /^Invalid configuration: TMDS_WS_SUBSCRIPTIONS_PER_SOCKET must be auto \(pack up to 500 while the service takes them\) or a whole number from 1 to 1000/,
      );
    }
  });

  describe('the operators’ HTTP server and the stop', () => {
    it('is off without HTTP_PORT; with it, listens on 127.0.0.1 unless HTTP_HOST says otherwise', () => {
      expect(loadConfig({}).http).toBeNull();
      expect(loadConfig({ HTTP_PORT: '9464' }).http).toEqual({ host: '127.0.0.1', port: 9464 });
      expect(loadConfig({ HTTP_PORT: '8080', HTTP_HOST: '0.0.0.0' }).http).toEqual({ host: '0.0.0.0', port: 8080 });
      expect(loadConfig({ HTTP_PORT: '8080', HTTP_HOST: '::1' }).http).toEqual({ host: '::1', port: 8080 });
      expect(loadConfig({ HTTP_PORT: '8080', HTTP_HOST: 'localhost' }).http).toEqual({ host: 'localhost', port: 8080 });
    });

    it('refuses a port out of range, a host that is a URL, and the port of Telegram’s webhook', () => {
      expect(() => loadConfig({ HTTP_PORT: '0' })).toThrow('Invalid configuration: HTTP_PORT must be a whole number from 1 to 65535');
      expect(() => loadConfig({ HTTP_PORT: '70000' })).toThrow(ConfigError);
      expect(() => loadConfig({ HTTP_PORT: '80 80' })).toThrow(ConfigError);
      expect(() => loadConfig({ HTTP_PORT: '8080', HTTP_HOST: 'http://0.0.0.0:8080' })).toThrow(
        'Invalid configuration: HTTP_HOST must be an IP address or a host name',
      );
      const webhook = {
        TELEGRAM_BOT_TOKEN: '123456789:AAsecret-token',
        TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg',
        TMDS_BASE_URL: 'simulator',
      };
      expect(() => loadSettings({ ...webhook, HTTP_PORT: '8080' })).toThrow(
        'Invalid configuration: HTTP_PORT and TELEGRAM_WEBHOOK_PORT are both 8080',
      );
      expect(loadSettings({ ...webhook, HTTP_PORT: '8080', TELEGRAM_WEBHOOK_PORT: '8443' }).http).toEqual({
        host: '127.0.0.1',
        port: 8080,
      });
    });

    it('reads SHUTDOWN_TIMEOUT as a duration, 10 s by default', () => {
      expect(loadConfig({}).shutdownTimeoutMs).toBe(10_000);
      expect(loadConfig({ SHUTDOWN_TIMEOUT: '30s' }).shutdownTimeoutMs).toBe(30_000);
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT: '30' })).toThrow(
        'Invalid configuration: SHUTDOWN_TIMEOUT must be a duration with a unit',
      );
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT: '0s' })).toThrow(ConfigError);
    });
  });

  describe('Discord shards', () => {
    const discord = {
      DISCORD_TOKEN: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfakeX.abcdefghijklmnopqrstuvwxyz0123456789',
      DISCORD_APP_ID: '1100000000000000001',
      TMDS_BASE_URL: 'simulator',
    };
    const shards = (env: Record<string, string>) => readDiscordSettings(loadSettings(env).env)?.shards;

    it('run every shard Discord recommends by default, or all of a count set by hand', () => {
      expect(shards(discord)).toBe('auto');
      expect(shards({ ...discord, DISCORD_SHARDS: 'auto' })).toBe('auto');
      expect(shards({ ...discord, DISCORD_SHARD_COUNT: '4' })).toEqual({ ids: [0, 1, 2, 3], count: 4 });
    });

    it('run the ids and ranges named, out of DISCORD_SHARD_COUNT', () => {
      expect(shards({ ...discord, DISCORD_SHARDS: '0-3', DISCORD_SHARD_COUNT: '8' })).toEqual({
        ids: [0, 1, 2, 3],
        count: 8,
      });
      expect(shards({ ...discord, DISCORD_SHARDS: '6, 0,2-3,2', DISCORD_SHARD_COUNT: '8' })).toEqual({
        ids: [0, 2, 3, 6],
        count: 8,
      });
    });

    it('refuse a list without a count, an id past the count, and what is no list', () => {
      expect(() => loadSettings({ ...discord, DISCORD_SHARDS: '0-3' })).toThrow(
        /^Invalid configuration: DISCORD_SHARD_COUNT is required with DISCORD_SHARDS/,
      );
      expect(() => loadSettings({ ...discord, DISCORD_SHARDS: '2-4', DISCORD_SHARD_COUNT: '4' })).toThrow(
        /DISCORD_SHARDS must name shards below DISCORD_SHARD_COUNT \(4\)/,
      );
      for (const wrong of ['3-1', 'one', '0-', '1.5', '-2']) {
        expect(() => loadSettings({ ...discord, DISCORD_SHARDS: wrong, DISCORD_SHARD_COUNT: '4' }), wrong).toThrow(
          /^Invalid configuration: DISCORD_SHARDS must be auto, or shard ids and ranges/,
        );
      }
      expect(() => loadSettings({ ...discord, DISCORD_SHARD_COUNT: '0' })).toThrow(/DISCORD_SHARD_COUNT must be a whole number from 1/);
    });
  });
});

describe('TOKENWATCH_ROLES', () => {
  const pg = { DATABASE_URL: 'postgres://bot:secret@db.example:5432/tokenwatch' };

  it('is every role in one process by default, with SQLite or PostgreSQL', () => {
    for (const env of [{}, pg]) {
      const { roles } = loadConfig(env);
      expect([...roles.set].sort()).toEqual(['discord', 'sender', 'telegram', 'watcher']);
      expect(roles.clustered).toBe(false);
    }
  });

  it('names the roles of one process of several over PostgreSQL, in any order and case', () => {
    const { roles } = loadConfig({ ...pg, TOKENWATCH_ROLES: ' Sender, watcher ' });
    expect([...roles.set].sort()).toEqual(['sender', 'watcher']);
    expect(roles.clustered).toBe(true);
  });

  it('refuses a role it does not know, and a part of the roles without DATABASE_URL', () => {
    expect(() => loadConfig({ ...pg, TOKENWATCH_ROLES: 'watcher,poller' })).toThrow(
      /^Invalid configuration: TOKENWATCH_ROLES must be a comma-separated list of discord, telegram, watcher, sender \(got "poller"\)$/,
    );
    expect(() => loadConfig({ TOKENWATCH_ROLES: 'watcher,sender' })).toThrow(/^Invalid configuration: TOKENWATCH_ROLES needs DATABASE_URL/);
    // Every role on SQLite is the default spelled out: one process.
    expect(loadConfig({ TOKENWATCH_ROLES: 'watcher,sender,discord,telegram' }).roles.clustered).toBe(false);
  });

  it('asks for one fixed webhook secret when several processes serve the Telegram webhook', () => {
    const webhook = {
      ...pg,
      TMDS_BASE_URL: 'simulator',
      TELEGRAM_BOT_TOKEN: '123456789:AAsecret-token',
      TELEGRAM_WEBHOOK_URL: 'https://bot.example/tg',
    };
    expect(() => loadSettings({ ...webhook, TOKENWATCH_ROLES: 'telegram' })).toThrow(
      /^Invalid configuration: TELEGRAM_WEBHOOK_SECRET is required with TOKENWATCH_ROLES/,
    );
    expect(loadSettings({ ...webhook, TOKENWATCH_ROLES: 'telegram', TELEGRAM_WEBHOOK_SECRET: 'shared-secret_1' }).roles.clustered).toBe(
      true,
    );
    // A process without the telegram role serves no webhook.
    expect(loadSettings({ ...webhook, TOKENWATCH_ROLES: 'watcher,sender' }).roles.clustered).toBe(true);
  });
});
