/** Plain http:// or ws:// to another machine is one warning line at start; loopback and https are not. */
import { describe, expect, it } from 'vitest';
import { platformAddresses } from '../src/chats/platforms';
import { loadConfig, type Config } from '../src/config';
import { plainAddressWarning } from '../src/plainAddresses';

/** The line as the bot logs it at start: with the configured platforms' addresses. */
const warning = (config: Config) => plainAddressWarning(config, platformAddresses(config, config.env));

const CHATS = {
  TELEGRAM_BOT_TOKEN: '123456789:AAtest',
  DISCORD_TOKEN: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfakeX.abcdefghijklmnopqrstuvwxyz0123456789',
  DISCORD_APP_ID: '1100000000000000001',
};

describe('plainAddressWarning', () => {
  it('names every plain address to another machine in one line', () => {
    const config = loadConfig({
      ...CHATS,
      TMDS_BASE_URL: 'http://tmds.example:8080',
      TMDS_API_KEY: 'key-1234',
      TELEGRAM_API_ROOT: 'http://bots.example',
      DISCORD_REST_API: 'http://discord.example/api',
    });
    const line = warning(config) ?? '';
    for (const name of ['TMDS_BASE_URL', 'TMDS_WS_URL=ws://tmds.example:8080', 'TELEGRAM_API_ROOT', 'DISCORD_REST_API'])
      expect(line).toContain(name);
    expect(line.split('\n')).toHaveLength(1);
  });

  it('says nothing for https, wss and loopback', () => {
    expect(warning(loadConfig({ ...CHATS, TMDS_BASE_URL: 'https://tmds.example', TMDS_API_KEY: 'key-1234' }))).toBeNull();
    expect(
      warning(
        loadConfig({
          ...CHATS,
          TMDS_BASE_URL: 'http://127.0.0.1:9000',
          TMDS_API_KEY: 'key-1234',
          TELEGRAM_API_ROOT: 'http://localhost:8081',
          DISCORD_REST_API: 'http://[::1]:9999/api',
        }),
      ),
    ).toBeNull();
  });
});
