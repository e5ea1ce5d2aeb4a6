/**
 * A token that copies a well-known token's symbol or name from another address is flagged on its
 * card and on every alert card; the real token, and a token that only borrows part of a name, are not.
 */
import { describe, expect, it } from 'vitest';
import { alertCard } from '../../src/alerts/alertCard';
import { plainText } from '../../src/cards/card';
import { callsListCard, leaderboardCard } from '../../src/cards/callCards';
import { rankCallers } from '../../src/cards/callStats';
import { lookAlikeOf } from '../../src/cards/lookAlike';
import type { Call } from '../../src/store/calls';
import { buildTokenCard } from '../../src/cards/tokenCard';
import { renderCardMessages } from '../../src/chats/telegram/html';
import { KNOWN_TOKENS } from '../../src/market/knownTokens';
import { TokenSchema } from '../../src/market/schemas';
import type { AlertEvent } from '../../src/model/events';
import { expectSafeCard } from '../support/cardSafety';

const ELSEWHERE = 'FakeUsdc1111111111111111111111111111111pump';
const USDC = KNOWN_TOKENS.find((known) => known.symbol === 'USDC')?.address as string;
const NOW = new Date(Date.UTC(2026, 10, 27, 12, 0, 0));

function card(symbol: string, name: string, address = ELSEWHERE) {
  const token = TokenSchema.parse({
    chainId: 1399811149,
    address,
    decimals: 6,
    name,
    symbol,
    liquidityPools: {},
    links: {},
    riskStatus: 'SAFE',
  });
  return buildTokenCard({ token, solUsd: 150, now: NOW });
}

describe('look-alike tokens', () => {
  it.each([
    ['USDC', 'Totally USDC'],
    ['usdc', 'x'],
    ['$USDC', 'x'],
    ['U S D C', 'x'],
    ['ＵＳＤＣ', 'x'],
    ['USD\u0421', 'x'],
    ['U\u200bSDC', 'x'],
    ['CASH', 'USD Coin'],
  ])('flags %j / %j at another address as not the real USDC', (symbol, name) => {
    const made = card(symbol, name);
    expect(made.fields[0]?.name).toBe('⚠️ Not the real USDC');
    expect(plainText(made.fields[0]?.value ?? [])).toContain("its address is not USDC's");
    expectSafeCard(made);
  });

  it.each([
    ['USD\u03f9', 'USDC', 'Greek lunate sigma'],
    ['\ua4f4\ua4e2\ua4d3\ua4da', 'USDC', 'Lisu'],
    ['\u144cSDC', 'USDC', 'Canadian syllabics'],
    ['J\u054dP', 'JUP', 'Armenian'],
    ['\u051cIF', 'WIF', 'Cyrillic'],
    ['B0NK', 'BONK', 'digit zero'],
    ['S0L', 'SOL', 'digit zero'],
    ['W1F', 'WIF', 'digit one'],
  ])('flags %j as not the real %s (%s), on the Unicode confusable skeleton', (symbol, real) => {
    expect(card(symbol, 'x').fields[0]?.name).toBe(`⚠️ Not the real ${real}`);
  });

  it('leaves the real one, and names that only borrow part of one', () => {
    expect(lookAlikeOf({ address: USDC, symbol: 'USDC', name: 'USD Coin' })).toBeNull();
    for (const [symbol, name] of [
      ['BONKCAT', 'Bonk Cat'],
      ['USDCX', 'USDC Extra'],
      ['MOCHI', 'Neon Mochi'],
    ] as const) {
      expect(
        card(symbol, name).fields.some((field) => field.name.includes('Not the real')),
        `${symbol} / ${name}`,
      ).toBe(false);
    }
  });

  it('leads every alert card of a copy with the warning', () => {
    const token = { address: ELSEWHERE, symbol: 'BONK', name: 'Bonk', decimals: 5 };
    const events: AlertEvent[] = [
      { kind: 'risk-status', key: 'k1', at: NOW.getTime(), token, from: 'SAFE', to: 'DANGER', flags: [] },
      {
        kind: 'whale',
        key: 'k2',
        at: NOW.getTime(),
        token,
        wallet: 'Wha1e11111111111111111111111111111111111111',
        direction: 'in',
        fromPct: null,
        toPct: 4.5,
      },
    ];
    for (const event of events) {
      const made = alertCard(event, null);
      expect(made.fields[0]?.name, event.kind).toBe('⚠️ Not the real BONK');
      expect(JSON.stringify(renderCardMessages(made))).toContain('Not the real BONK');
    }
    const real = alertCard(
      {
        ...(events[0] as AlertEvent),
        token: { ...token, address: KNOWN_TOKENS.find((known) => known.symbol === 'BONK')?.address as string },
      },
      null,
    );
    expect(real.fields.some((field) => field.name.includes('Not the real'))).toBe(false);
  });

  it('marks a copy wherever a call names it: the calls list and the leaderboard’s best call', () => {
    const at = new Date('2026-06-01T12:00:00Z');
    const calls: Call[] = [0, 1, 2].map((index) => ({
      id: index + 1,
      chat: { platform: 'telegram', chatId: '-1', threadId: null, scopeId: null },
      address: `Fake${index}Address1111111111111111111111111`,
      symbol: 'B0NK',
      name: 'B0NK',
      userId: 'u1',
      userName: 'alice',
      messageId: null,
      calledAt: at,
      priceSol: 0.001,
      priceUsd: 0.15,
      solUsd: 150,
      mcapSol: 1000,
      mcapUsd: 150_000,
      peakSol: 0.003,
      peakAt: at,
      lastSol: 0.002,
      lastAt: at,
      checkedTo: 0,
      nextCheckAt: null,
      toldMultiple: 0,
    }));
    expect(callsListCard(calls, '7d', at).fields[0]?.name).toContain('⚠️ not the real BONK');
    expect(plainText(leaderboardCard(rankCallers(calls), '7d', at).fields[0]?.value ?? [])).toContain('⚠️ not the real BONK');
  });
});
