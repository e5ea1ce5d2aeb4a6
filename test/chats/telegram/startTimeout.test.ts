/**
 * A Bot API that cannot be reached at start is asked again for CHAT_START_TIMEOUT, then start-up
 * stops with one line naming where it asked and what to do, with the real grammY: a server that
 * takes the request and never answers, and one that answers 502 (Telegram's front when the Bot API
 * behind it is down). No test waits a fixed time: each waits for the start to give up.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTelegramChat } from '../../../src/chats/telegram/start';
import type { Dispatcher } from '../../../src/dispatch/dispatcher';
import { silentLogger } from '../../../src/log';
import type { Store } from '../../../src/store/store';

const TOKEN = '123456789:AAstart-timeout_token';

let servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  servers = [];
});

/** A local Bot API that answers every request with `answer` (never, when null); counts the getMe calls. */
async function botApi(answer: { status: number; body: object } | null): Promise<{ apiRoot: string; getMe: () => number }> {
  let getMe = 0;
  const server = createServer((request, response) => {
    if (request.url?.endsWith('/getMe') === true) getMe += 1;
    if (answer === null) return;
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, getMe: () => getMe };
}

/**
 * Long enough for a request to reach the server, and a refusal to come back, before the time is
 * spent, however loaded the machine.
 */
const START_TIMEOUT_MS = 1_500;
/** The server's count of getMe, read once it has come: the start may give up before the server has read the request. */
const ASKED = { timeout: 10_000, interval: 10 };

function start(apiRoot: string, startTimeoutMs = START_TIMEOUT_MS) {
  // Neither is reached: the start stops at getMe.
  return startTelegramChat({
    token: TOKEN,
    apiRoot,
    startTimeoutMs,
    dispatcher: {} as Dispatcher,
    store: {} as Store,
    logger: silentLogger,
    updates: 'none',
  });
}

describe('Telegram at start, bounded by CHAT_START_TIMEOUT', () => {
  it('a Bot API that never answers: one line after the time, naming the address and CHAT_START_TIMEOUT', async () => {
    const api = await botApi(null);
    const error = await start(api.apiRoot).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `Telegram: the Bot API at ${api.apiRoot} did not answer getMe: no answer within 1500ms; check TELEGRAM_API_ROOT and the network, or raise CHAT_START_TIMEOUT`,
    );
    expect((error as Error).message).not.toContain(TOKEN);
    await vi.waitFor(() => expect(api.getMe()).toBeGreaterThanOrEqual(1), ASKED);
  }, 20_000);

  it('a Bot API that answers 502 is asked again until the time is spent', async () => {
    const api = await botApi({ status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } });
    const error = await start(api.apiRoot).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    // The last failure is named when one came back before the time was spent (the retry of a 5xx inside the call may still be waiting).
    expect((error as Error).message).toMatch(
      /^Telegram: the Bot API at http:\/\/127\.0\.0\.1:\d+ did not answer getMe: no answer within 1500ms( \(last: 502 Bad Gateway\))?; check TELEGRAM_API_ROOT and the network, or raise CHAT_START_TIMEOUT$/,
    );
    await vi.waitFor(() => expect(api.getMe()).toBeGreaterThanOrEqual(1), ASKED);
  }, 20_000);

  it('a Bot API whose port refuses connections is asked again, and the refusal is named', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const apiRoot = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const error = await start(apiRoot).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Telegram: the Bot API at ${apiRoot.replace(/\./g, '\\.')} did not answer getMe: no answer within 1500ms \\(last: .*getMe.*\\); check TELEGRAM_API_ROOT and the network, or raise CHAT_START_TIMEOUT$`,
      ),
    );
    expect((error as Error).message).not.toContain(TOKEN);
  }, 20_000);

  it('a token the Bot API refuses stops at once, without asking again', async () => {
    const api = await botApi({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    // Time enough for the refusal to come back on a loaded machine: it stops the start, not the time.
    await expect(start(api.apiRoot, 10_000)).rejects.toThrow(
      'Telegram: the Bot API refused to start the bot (401 Unauthorized); check TELEGRAM_BOT_TOKEN and TELEGRAM_API_ROOT',
    );
    expect(api.getMe()).toBe(1);
  }, 20_000);
});
