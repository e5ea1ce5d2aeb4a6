/**
 * Mistakes answered as a person would want: an unknown command names the nearest one, `/track ADDR`
 * the whole line to type (wallet when the address trades), and an address the service does not
 * know is an answer with a hint, not a failure: no error id, one info line in the log, no stack.
 * The real Dispatcher and commands over the simulator (test/e2e/harness.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { answerLine } from '../../src/chats/console/chat';
import { createLogger } from '../../src/log';
import type { RunningSimulator } from 'tmds-simulator';
import { fakeAddress } from '../support/addresses';
import { chatRef, quietSimulator, startHarness, type Harness } from '../e2e/harness';

let sim: RunningSimulator;
let h: Harness;
let dir: string;
let token: string;
let wallet: string;
const logLines: string[] = [];

const chat = chatRef('telegram', 'mistakes');
const say = (line: string) => h.say(chat, line);
const text = (card: Card) => [card.title, plainText(card.description ?? []), card.footer ?? ''].join('\n');

beforeAll(async () => {
  sim = await quietSimulator();
  dir = mkdtempSync(join(tmpdir(), 'tokenwatch-mistakes-'));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  h = await startHarness(sim, join(dir, 'tokenwatch.db'), { logger: createLogger('info', sink) });
  const hostile = new Set(sim.market.hostileTokens());
  token = sim.market.tokenAddresses().find((address) => !hostile.has(address)) ?? '';
  wallet = sim.market.wallets()[0] ?? '';
});

afterAll(async () => {
  await h.app.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an unknown command', () => {
  it('answers with the nearest command, as /help does', async () => {
    const reply = await say(`/tokn ${token}`);
    expect(reply.errorId).toBeNull();
    expect(reply.card.title).toBe('Unknown command "/tokn"');
    expect(text(reply.card)).toContain('Did you mean /token?');
    expect(text((await say('/holder')).card)).toContain('Did you mean /holders?');
  });

  it('with nothing near, points to /help', async () => {
    expect(text((await say('/zzzzzzzz')).card)).toContain('Try /help for the commands there are.');
  });

  it('typed without its slash in the console, is not a command, with the nearest named', async () => {
    const card = await answerLine(`tokn please`, h.app.dispatcher);
    expect(card === null ? '' : text(card)).toContain('Did you mean /token?');
  });

  it('quoted back whole, or cut between graphemes with an ellipsis', async () => {
    const card = await answerLine(`hi ${'👨‍👩‍👧'.repeat(20)}`, h.app.dispatcher);
    expect(card?.title).toMatch(/^"hi (👨‍👩‍👧)+…" is not a command$/);
  });
});

describe('/track ADDR', () => {
  it('suggests /track token ADDR for a token, keeping the words after it', async () => {
    const reply = await say(`/track ${token} risk`);
    expect(reply.errorId).toBeNull();
    expect(text(reply.card)).toContain(`Did you mean /track token ${token} risk ?`);
  });

  it('suggests /track wallet ADDR for an address that trades, link or not', async () => {
    expect(text((await say(`/track ${wallet}`)).card)).toContain(`Did you mean /track wallet ${wallet} ?`);
    expect(text((await say(`/track https://solscan.io/account/${wallet}`)).card)).toContain(`Did you mean /track wallet ${wallet} ?`);
  });

  it('reads a token link where the kind goes as its address', async () => {
    expect(text((await say(`/track https://dexscreener.com/solana/${token}`)).card)).toContain(`Did you mean /track token ${token} ?`);
  });
});

describe('not found', () => {
  it('is an answer with a hint: no error id, one info line in the log, no stack', async () => {
    const unknown = fakeAddress('Unknwn', 7);
    const before = logLines.length;
    const reply = await say(`/token ${unknown}`);
    expect(reply.errorId).toBeNull();
    expect(reply.card.title).toBe('Not found');
    expect(reply.card.footer ?? '').not.toContain('Error id');
    expect(text(reply.card)).toContain(`knows no token at ${unknown}`);

    const lines = logLines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    const about = lines.filter((line) => JSON.stringify(line).includes(unknown));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatchObject({ level: 30, msg: 'command answered: not found', command: 'token', address: unknown });
    expect(lines.filter((line) => Number(line.level) >= 40)).toEqual([]);
    expect(lines.filter((line) => 'err' in line || JSON.stringify(line).includes('stack'))).toEqual([]);
  });

  it('of a wallet looked up as a token says so: this is a wallet, try /wallet', async () => {
    const reply = await say(`/token ${wallet}`);
    expect(reply.errorId).toBeNull();
    expect(text(reply.card)).toContain(`This is a wallet: try /wallet ${wallet}`);
    const holders = await say(`/holders https://solscan.io/account/${wallet}`);
    expect(text(holders.card)).toContain(`This is a wallet: try /wallet ${wallet}`);
  });
});
