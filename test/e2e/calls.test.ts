/**
 * Calls end to end, the whole bot in-process as main starts it (a SQLite file, the simulator, the
 * dispatcher, the peak job and delivery), on one injected clock: a manager turns calls on, a pasted
 * token's first poster gets the call, a later post names them, and after a pump the milestone goes
 * out once, as a reply to the first post, and not again after a restart.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../../src/cards/card';
import { startApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import type { ChatRef } from '../../src/model/chat';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { RecordingSender, tempDb } from '../delivery/helpers';
import { KEY } from './harness';

const MINUTE = 60_000;
const group: ChatRef = { platform: 'telegram', chatId: '-100777', threadId: null, scopeId: null };

let clockMs = Date.UTC(2027, 3, 5, 9, 0, 0);
let sim: RunningSimulator;
let db: { path: string; cleanup: () => void };

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, port: 0, seed: 42, control: true, tradesPerSecond: 0, now: () => clockMs });
  db = tempDb();
});
afterAll(async () => {
  await sim.close();
  db.cleanup();
});

async function start(sender: RecordingSender): Promise<App> {
  const config = loadConfig({
    TMDS_BASE_URL: sim.baseUrl,
    TMDS_WS_URL: sim.wsUrl,
    TMDS_API_KEY: KEY,
    DATABASE_PATH: db.path,
    RECONCILE_CRON: '0 0 1 1 *',
    TMDS_CACHE_TTL: 'token-data=0,chart-history=0',
  });
  return startApp({
    config,
    logger: silentLogger,
    console: { input: new PassThrough(), output: new PassThrough(), interactive: false, outDir: '/tmp' },
    platforms: [async () => ({ name: 'telegram', sender, ended: null, stop: async () => undefined })],
    now: () => new Date(clockMs),
  });
}

describe('calls end to end', () => {
  it('records the first poster’s call and replies to their post once at ×2, through a restart', async () => {
    const hostile = new Set(sim.market.hostileTokens());
    const token = sim.market.tokenAddresses().filter((address) => !hostile.has(address))[7] ?? '';
    const sender = new RecordingSender('telegram');
    let app = await start(sender);
    try {
      const on = await app.dispatcher.runLine('/calls on', { chat: group, userId: '1', isManager: async () => true });
      expect(on?.card.title).toBe('Calls turned on');
      const paste = (userId: string, userName: string, messageId: string) =>
        app.dispatcher.run(
          'token',
          { kind: 'text', text: token },
          { chat: group, userId, userName, messageId, isManager: async () => false },
        );
      await paste('111', 'Alice <@&123>', '4242');
      clockMs += MINUTE;
      const later = await paste('222', 'Bob', '4243');
      expect(plainText(later.card.fields.at(-1)?.value ?? [])).toMatch(/^called by Alice <＠&123> 1m ago at \$[\d.]+[KM] mcap · ×1\.0$/);

      clockMs += 2 * MINUTE;
      sim.controls.price({ tokenAddress: token, changePct: 400 });
      sim.controls.price({ tokenAddress: token, changePct: -50 });
      clockMs += 3 * MINUTE;
      await app.callPeaks.runOnce();
      await app.delivery.drain();
      const told = sender.sent.filter((sent) => sent.card.title.includes('reached ×'));
      expect(told).toHaveLength(1);
      expect(told[0]?.chat.chatId).toBe(group.chatId);
      expect(told[0]?.card.replyTo).toBe('4242');
      expect(plainText(told[0]?.card.description ?? [])).toMatch(/^×\d\.\d since Alice <＠&123>’s call 6m ago/);

      await app.stop();
      app = await start(sender);
      clockMs += 5 * MINUTE;
      await app.callPeaks.runOnce();
      await app.delivery.drain();
      expect(sender.sent.filter((sent) => sent.card.title.includes('reached ×'))).toHaveLength(1);
    } finally {
      await app.stop();
    }
  });
});
