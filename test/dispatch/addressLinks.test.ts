/**
 * Every command that takes a token or a wallet reads every link form the paste reader reads, as
 * the address it holds: the real commands through the real Dispatcher, over the simulator
 * (test/e2e/harness.ts). Each link's answer is the bare address's answer. The console reads the
 * same links pasted alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { answerLine } from '../../src/chats/console/chat';
import type { ChatReply } from '../../src/dispatch/reply';
import type { ChatRef } from '../../src/model/chat';
import type { RunningSimulator } from 'tmds-simulator';
import { chatRef, quietSimulator, startHarness, type Harness } from '../e2e/harness';

/** Links to a token, as people copy them from each site (with and without the scheme). */
const TOKEN_LINKS: ReadonlyArray<readonly [string, (address: string) => string]> = [
  ['DEX Screener', (a) => `https://dexscreener.com/solana/${a}`],
  ['DEX Screener without scheme', (a) => `dexscreener.com/solana/${a}`],
  ['Birdeye', (a) => `https://birdeye.so/token/${a}?chain=solana`],
  ['GeckoTerminal', (a) => `https://www.geckoterminal.com/solana/pools/${a}`],
  ['Jupiter', (a) => `https://jup.ag/swap/SOL-${a}`],
  ['pump.fun', (a) => `https://pump.fun/coin/${a}`],
  ['Solscan', (a) => `https://solscan.io/token/${a}`],
  ['GMGN', (a) => `https://gmgn.ai/sol/token/${a}`],
  ['Raydium', (a) => `https://raydium.io/swap/?inputMint=sol&outputMint=${a}`],
];

/** Links to a wallet. */
const WALLET_LINKS: ReadonlyArray<readonly [string, (address: string) => string]> = [
  ['Solscan account', (a) => `https://solscan.io/account/${a}`],
  ['Birdeye profile', (a) => `birdeye.so/profile/${a}?chain=solana`],
  ['GMGN address', (a) => `https://gmgn.ai/sol/address/${a}`],
];

let sim: RunningSimulator;
let h: Harness;
let dir: string;
let token: string;
let wallet: string;

beforeAll(async () => {
  sim = await quietSimulator();
  dir = mkdtempSync(join(tmpdir(), 'tokenwatch-links-'));
  h = await startHarness(sim, join(dir, 'tokenwatch.db'));
  const hostile = new Set(sim.market.hostileTokens());
  token = sim.market.tokenAddresses().find((address) => !hostile.has(address)) ?? '';
  wallet = sim.market.wallets()[0] ?? '';
});

afterAll(async () => {
  await h.app.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The answer as a reader sees it, less what moves with the clock. */
function seen(card: Card): string {
  return [card.title, card.color, ...card.fields.map((field) => field.name)].join(' | ');
}

let asker = 0;

/** Runs a line as its chat's manager, a new person each time, so no command's cooldown (/technicals) gets in the way. */
async function run(chat: ChatRef, line: string): Promise<ChatReply> {
  asker += 1;
  const reply = await h.app.dispatcher.runLine(line, { chat, userId: `person-${asker}`, isManager: async () => true });
  if (reply === null) throw new Error(`not a command: ${line}`);
  return reply;
}

function answered(reply: ChatReply): ChatReply {
  expect(reply.errorId, plainText(reply.card.description ?? [])).toBeNull();
  expect(reply.card.color, `${reply.card.title}: ${plainText(reply.card.description ?? [])}`).not.toBe('error');
  return reply;
}

describe.each(TOKEN_LINKS)('a %s link', (_site, linkTo) => {
  const chat = chatRef('telegram', `links-${_site}`);
  const say = (line: string) => run(chat, line);

  it('is the token to /token, /technicals, /holders, /chart and /trades', async () => {
    const link = linkTo(token);
    for (const line of ['/token', '/technicals', '/holders', '/chart']) {
      expect(seen(answered(await say(`${line} ${link}`)).card), `${line} ${link}`).toBe(seen((await say(`${line} ${token}`)).card));
    }
    const trades = answered(await say(`/trades ${link} ${WALLET_LINKS[0]?.[1](wallet) ?? ''}`));
    expect(seen(trades.card)).toBe(seen((await say(`/trades ${token} ${wallet}`)).card));
  });

  it('is the token to /track, /mute, /unmute, /untrack, /target and /untarget', async () => {
    const link = linkTo(token);
    expect(plainText(answered(await say(`/track token ${link} price 25`)).card.fields[0]?.value ?? [])).toContain('price moves');
    answered(await say(`/mute ${link} 1h`));
    answered(await say(`/unmute ${link}`));
    expect(answered(await say(`/untrack ${link}`)).card.title).toBe('No longer tracking');
    expect(answered(await say(`/target ${link} price above 1`)).card.title).toMatch(/^Target set: /);
    answered(await say(`/untarget ${link}`));
    expect(await h.app.store.follows.totals()).toMatchObject({ follows: 0 });
  });

  it('pasted alone in the console is /token of its token', async () => {
    const card = await answerLine(linkTo(token), h.app.dispatcher);
    expect(card === null ? null : seen(card)).toBe(seen((await say(`/token ${token}`)).card));
  });
});

describe.each(WALLET_LINKS)('a %s link', (_site, linkTo) => {
  const chat = chatRef('discord', `links-${_site}`);
  const say = (line: string) => run(chat, line);

  it('is the wallet to /wallet, /trades, /track wallet and /untrack', async () => {
    const link = linkTo(wallet);
    expect(seen(answered(await say(`/wallet ${link}`)).card)).toBe(seen((await say(`/wallet ${wallet}`)).card));
    expect(seen(answered(await say(`/trades ${token} ${link}`)).card)).toBe(seen((await say(`/trades ${token} ${wallet}`)).card));
    expect(answered(await say(`/track wallet ${link} dev`)).card.title).toMatch(/^Tracking wallet/);
    expect(answered(await say(`/untrack ${link}`)).card.title).toBe('No longer tracking');
  });
});

describe('a link with no address in it', () => {
  it('is refused as such, quoted whole or cut between graphemes', async () => {
    const reply = await run(chatRef('telegram', 'links-none'), `/token https://dexscreener.com/solana/${'👨‍👩‍👧'.repeat(30)}`);
    expect(reply.errorId).toBeNull();
    expect(reply.card.title).toContain('is a link with no address in it');
    // The quote ends in an ellipsis after a whole family emoji, never inside one.
    expect(reply.card.title).toMatch(/👨‍👩‍👧…"/);
  });
});
