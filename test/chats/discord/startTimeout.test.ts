/**
 * A Discord gateway that cannot be reached at start is waited for CHAT_START_TIMEOUT (discord.js
 * asks it again by itself), then start-up stops with one line saying what to check, and the client
 * is let go: the real discord.js against the local fake, whose /gateway/bot points at a socket that
 * takes the connection and never says HELLO. No test waits a fixed time: it waits for the start to give up.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordChat } from '../../../src/chats/discord/start';
import type { Dispatcher } from '../../../src/dispatch/dispatcher';
import { silentLogger } from '../../../src/log';
import type { Store } from '../../../src/store/store';
import { FakeDiscord, nextSnowflake } from '../../support/discord/fakeDiscord';

const TOKEN = 'FAKE.start-timeout.1234567890abcdefghij';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

/**
 * A gateway that takes the WebSocket and never says HELLO. (A socket whose handshake never completes
 * would do as well, but discord.js leaves such a connection behind when it is destroyed, to fail
 * later in some other test.)
 */
async function silentGateway(): Promise<{ url: string; connections: () => number }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  cleanups.push(async () => {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe('Discord at start, bounded by CHAT_START_TIMEOUT', () => {
  it('a gateway that never answers: one line after the time, naming what to check and CHAT_START_TIMEOUT', async () => {
    const gateway = await silentGateway();
    const fake = await FakeDiscord.start({ appId: nextSnowflake(), token: TOKEN, guilds: [], gatewayUrl: gateway.url });
    cleanups.push(() => fake.close());
    // Neither is reached: the start stops before the gateway is ready.
    const started = startDiscordChat({
      token: TOKEN,
      appId: fake.options.appId,
      restApi: fake.restApi,
      // Long enough for discord.js to ask for the gateway and open its socket before the time is
      // spent, however loaded the machine: what the gateway never does is say HELLO.
      startTimeoutMs: 5_000,
      dispatcher: { commands: [] } as unknown as Dispatcher,
      store: {} as Store,
      logger: silentLogger,
    });
    const error = await started.then(
      async (chat) => {
        await chat.stop();
        return null;
      },
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      'Discord: the gateway was not reached: no answer within 5s; check DISCORD_REST_API and the network, or raise CHAT_START_TIMEOUT',
    );
    expect((error as Error).message).not.toContain(TOKEN);
    // It did ask: the gateway's address came from the fake.
    expect(fake.requests.some((request) => request.path === '/gateway/bot')).toBe(true);
    expect(gateway.connections()).toBeGreaterThanOrEqual(1);
  }, 30_000);
});
