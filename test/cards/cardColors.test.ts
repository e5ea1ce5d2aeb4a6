/**
 * What a card's colour and badge may say. The risk colours (and the [SAFE]/[WARNING]/[DANGER]
 * badge, the 🟢🟡🔴 marker and the embed colour the renderers give them) name a token's risk
 * status: only a card about one token takes one, and then that token's current status. Every other
 * card is neutral, informational or an error, and no renderer shows a risk badge on it.
 */
import { describe, expect, it } from 'vitest';
import { alertCard } from '../../src/alerts/alertCard';
import type { Card, CardColor } from '../../src/cards/card';
import { cardForError } from '../../src/cards/errorCard';
import { followingCard, statusCard, walletTrackedCard } from '../../src/follows/followCards';
import { helpCard } from '../../src/cards/helpCard';
import { actionGoneCard, cooldownCard, managerOnlyCard } from '../../src/cards/noticeCard';
import { renderCardText } from '../../src/chats/console/render';
import { EMBED_COLORS, renderCard } from '../../src/chats/discord/embed';
import { renderCardMessages } from '../../src/chats/telegram/html';
import { MarketError } from '../../src/market/errors';
import type { Follow } from '../../src/model/follow';
import { UsageError } from '../../src/usage';
import type { AlertEvent, TokenRef } from '../../src/model/events';
import { T1, W1, W2 } from '../watch/support/fixtures';

const AT = Date.UTC(2026, 10, 23, 12, 0, 0);
const HASH = '5J6d1UKFyqvQ1Zb9S7vE3uJ4nX2bR8mW6kT1pL9cD3fH7gA2sQ4eY8wV5xN1zM6jK3rB9tU2oI7yP4aS8dF1gH';
const RISK_COLORS: readonly CardColor[] = ['safe', 'warning', 'danger'];
const BADGE = /^(\u001b\[[0-9;]*m)?\[(SAFE|WARNING|DANGER)\]/;
const MARKER = /^(🟢|🟡|🔴)/u;

/** One event of every kind, about `token`. */
function everyKind(token: TokenRef): AlertEvent[] {
  return [
    { kind: 'risk-flag', key: 'k2', at: AT, token, changes: [{ flag: 'freezeAuthority', from: W2, to: null }] },
    { kind: 'liquidity', key: 'k3', at: AT, token, pools: [{ poolAddress: W2, from: '120000000000', to: '0', gone: false, dropPct: 100 }] },
    {
      kind: 'price',
      key: 'k4',
      at: AT,
      token,
      from: 0.001,
      to: 0.00125,
      changePct: 25,
      previousChangePct: 3,
      windowSecs: 1_830,
      priceUsd: 0.19,
    },
    {
      kind: 'price',
      key: 'k4d',
      at: AT,
      token,
      from: 0.001,
      to: 0.0007,
      changePct: -30,
      previousChangePct: -3,
      windowSecs: 1_830,
      priceUsd: 0.1,
    },
    {
      kind: 'wallet-trade',
      key: 'k5',
      at: AT,
      token,
      wallet: W1,
      side: 'buy',
      tokenAmount: '123456789',
      decimals: 6,
      nativeAmount: '2500000000',
      amountUsd: 375.5,
      price: 0.0202,
      transactionHash: HASH,
      timestamp: AT / 1000,
    },
    {
      kind: 'wallet-trade',
      key: 'k5s',
      at: AT,
      token,
      wallet: W1,
      side: 'sell',
      tokenAmount: '123456789',
      decimals: 6,
      nativeAmount: '2500000000',
      amountUsd: 375.5,
      price: 0.0202,
      transactionHash: HASH,
      timestamp: AT / 1000,
    },
    { kind: 'whale', key: 'k6', at: AT, token, wallet: W2, direction: 'in', fromPct: null, toPct: 4.5 },
    { kind: 'whale', key: 'k6o', at: AT, token, wallet: W2, direction: 'out', fromPct: 4.5, toPct: 0.5 },
  ];
}

function token(riskStatus: string | null | undefined): TokenRef {
  return { address: T1, symbol: 'FIX', name: 'Fixture Token', decimals: 6, ...(riskStatus === undefined ? {} : { riskStatus }) };
}

describe('alert cards', () => {
  it.each([
    ['DANGER', 'danger', '[DANGER]', '🔴'],
    ['WARNING', 'warning', '[WARNING]', '🟡'],
    ['SAFE', 'safe', '[SAFE]', '🟢'],
  ] as const)('every kind on a %s token is coloured and badged %s, whatever moved', (status, color, badge, marker) => {
    for (const event of everyKind(token(status))) {
      const card = alertCard(event, null);
      expect(card.color, event.key).toBe(color);
      expect(renderCardText(card).startsWith(`${badge} `), event.key).toBe(true);
      const first = renderCardMessages(card)[0];
      expect(first?.kind === 'text' ? first.html.startsWith(marker) : false, event.key).toBe(true);
      expect(renderCard(card).embeds[0]?.color, event.key).toBe(EMBED_COLORS[color]);
    }
  });

  it('a token whose status was not read (or is no status) gets no risk colour and no badge', () => {
    for (const status of [undefined, null, 'PENDING']) {
      for (const event of everyKind(token(status))) {
        const card = alertCard(event, null);
        expect(card.color, `${event.key} ${status}`).toBe('neutral');
        expect(renderCardText(card)).not.toMatch(BADGE);
      }
    }
  });

  it('a risk change is coloured by the status it changed to, the current one', () => {
    const event: AlertEvent = { kind: 'risk-status', key: 'k1', at: AT, token: token(undefined), from: 'SAFE', to: 'DANGER', flags: [] };
    expect(alertCard(event, null).color).toBe('danger');
    expect(alertCard({ ...event, from: 'DANGER', to: 'SAFE', token: token('SAFE') }, null).color).toBe('safe');
  });
});

describe('cards about no token', () => {
  const now = new Date(AT);
  const follow: Follow = {
    id: 1,
    chat: { platform: 'console', chatId: 'c', threadId: null, scopeId: null },
    kind: 'wallet',
    address: W1,
    label: 'dev',
    options: { events: [], thresholdPct: 10, minUsd: 0, side: 'both' },
    mutedUntil: null,
    addedBy: 'u',
    addedAt: now,
  };
  const report = (open: number, paused: string | null) => ({
    streams: {
      protocol: 'spec (the default)',
      unconfirmed: 0,
      sockets: 2,
      open,
      subscriptions: 3,
      reconnects: 0,
      packing: { setting: 'auto' as const, perSocket: 500, state: 'accepted' as const, evidence: null },
      atLimit: null,
    },
    follows: { follows: 1, chats: 1, tokens: 0, wallets: 1 },
    polls: null,
    outbox: { pending: 0, oldest: null },
    paused,
    startedAt: AT - 60_000,
    shards: null,
    processes: null,
  });
  const usage = { name: 'track', description: 'Follow', help: 'Follows.', options: [] };
  const cards: Array<[string, Card]> = [
    ['status, all up', statusCard(report(2, null), now)],
    ['status, a socket down and the chat paused', statusCard(report(1, 'blocked'), now)],
    ['help', helpCard([usage])],
    ['help of a command', helpCard([usage], 'track')],
    ['following', followingCard([follow], 1, 1, now)],
    ['following nothing', followingCard([], 0, 1, now)],
    ['wallet tracked', walletTrackedCard(follow, true, now)],
    ['managers only', managerOnlyCard('track')],
    ['cooldown', cooldownCard('technicals', 2_000)],
    ['button expired', actionGoneCard('expired')],
    ['button unknown', actionGoneCard('unknown')],
    ['button of another chat', actionGoneCard('wrong-chat')],
    ['usage error', cardForError(new UsageError('Missing address.', usage))],
    ['market error', cardForError(new MarketError({ kind: 'not-found', endpoint: 'token-data', userMessage: 'No such token.' }))],
    ['unexpected error', cardForError(new Error('boom'))],
  ];

  it.each(cards)('%s: no risk colour, and no renderer shows a risk badge', (_name, card) => {
    expect(RISK_COLORS).not.toContain(card.color);
    expect(renderCardText(card)).not.toMatch(BADGE);
    expect(renderCardText(card, { color: true })).not.toMatch(BADGE);
    for (const message of renderCardMessages(card)) expect(message.kind === 'text' ? message.html : message.caption).not.toMatch(MARKER);
    const riskEmbedColors = RISK_COLORS.map((color) => EMBED_COLORS[color]);
    expect(riskEmbedColors).not.toContain(renderCard(card).embeds[0]?.color);
  });
});
