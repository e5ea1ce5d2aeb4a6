/**
 * The daily watchlist's card: its tokens in the order made (by 24h change), each with price,
 * change, volume, liquidity and risk status; its wallets' trades with their USD total; within every
 * platform's limits for a full chat, and inert with the simulator's hostile names and labels.
 */
import { describe, expect, it } from 'vitest';
import { alertCard } from '../../src/alerts/alertCard';
import type { DailyDigestEvent, WatchlistToken } from '../../src/alerts/kinds/dailyDigest';
import { plainText } from '../../src/cards/card';
import { HOSTILE_METADATA } from 'tmds-simulator';
import { expectSafeCard } from '../support/cardSafety';
import { T1, W1 } from '../watch/support/fixtures';

function token(name: string, change: number | null, overrides: Partial<WatchlistToken> = {}): WatchlistToken {
  return {
    address: T1,
    symbol: name.slice(0, 4).toUpperCase(),
    name,
    priceNative: 0.00125,
    priceUsd: 0.25,
    change24hPct: change,
    ageSecs: null,
    volumeSol: 100,
    liquiditySol: 300,
    solUsd: 200,
    riskStatus: 'SAFE',
    ...overrides,
  };
}

function event(tokens: WatchlistToken[], extra: Partial<DailyDigestEvent> = {}): DailyDigestEvent {
  return {
    kind: 'daily-digest',
    key: 'daily-digest:telegram:-100:2025-01-15',
    at: Date.parse('2025-01-15T08:00:00Z'),
    token: { address: '', symbol: '', name: '' },
    day: '2025-01-15',
    time: '09:00',
    zone: 'Europe/Paris',
    tokens,
    tokensUnread: 0,
    wallets: [
      { address: W1, label: 'dev', buys: 2, sells: 1, usd: 1234.5 },
      { address: T1, label: null, buys: 0, sells: 0, usd: null },
    ],
    walletsUnread: 0,
    ...extra,
  };
}

describe('the daily watchlist card', () => {
  it('lists each token with its change, price, volume, liquidity and status, then the wallets’ trades and their total', () => {
    const card = alertCard(
      event([token('Neon Mochi', 12.3), token('Solar Capy', null, { ageSecs: 3 * 3600, riskStatus: 'DANGER' })]),
      null,
    );
    expect(card.title).toBe('Daily watchlist · 2025-01-15');
    expect(card.color).toBe('neutral');
    expect(plainText(card.fields[0]?.value ?? []).split('\n')).toEqual([
      'Neon Mochi (NEON) +12.3% · $0.25 · vol $20K · liq $60K · SAFE',
      'Solar Capy (SOLA) new, 3h old · $0.25 · vol $20K · liq $60K · DANGER',
    ]);
    expect(plainText(card.fields.find((f) => f.name === 'Wallet trades in the day')?.value ?? []).split('\n')).toEqual([
      `dev (${W1.slice(0, 4)}…${W1.slice(-4)}): 2 buys, 1 sell, $1.23K`,
      `${T1.slice(0, 4)}…${T1.slice(-4)}: no trades`,
    ]);
    expect(plainText(card.fields.find((f) => f.name === 'Wallets in all')?.value ?? [])).toBe('3 trades, $1.23K');
    expect(card.footer).toBe('daily at 09:00 Europe/Paris · /digest to change it');
  });

  it('keeps a full chat within the limits, saying how many tokens are left out or unread', () => {
    const many = Array.from({ length: 100 }, (_, index) => token(`Token number ${index} with a long name`, 100 - index));
    const card = alertCard(event(many, { tokensUnread: 2, walletsUnread: 1 }), null);
    const tokenText = card.fields
      .filter((f) => f.name.startsWith('Tokens'))
      .map((f) => plainText(f.value))
      .join('\n');
    expect(tokenText.split('\n')).toHaveLength(24 + 2);
    expect(tokenText).toContain('and 76 more (see /following)');
    expect(tokenText).toContain('2 could not be read');
    for (const f of card.fields) expect(plainText(f.value).length).toBeLessThanOrEqual(1024);
    expect(card.fields.map((f) => plainText(f.value)).join('').length).toBeLessThan(3800);
  });

  it('says so when the chat follows nothing, and stays inert with hostile names and labels', () => {
    expect(plainText(alertCard(event([], { wallets: [] }), null).description ?? [])).toMatch(/follows no token or wallet yet/);
    for (const hostile of HOSTILE_METADATA) {
      const card = alertCard(
        event([token(hostile.name, 1, { symbol: hostile.symbol, riskStatus: '@everyone' })], {
          wallets: [{ address: W1, label: hostile.name, buys: 1, sells: 0, usd: 1 }],
        }),
        null,
      );
      expectSafeCard(card);
    }
  });
});
