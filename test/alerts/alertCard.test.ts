/**
 * Alert cards: every kind names the token and what changed from what to what, carries actions to
 * look closer, and stays safe with the simulator's hostile names, statuses, authorities and labels.
 */
import { describe, expect, it } from 'vitest';
import { alertCard, alertCardWithChart } from '../../src/alerts/alertCard';
import { flagChangeText } from '../../src/alerts/kinds/riskFlag';
import { plainText } from '../../src/cards/card';
import { renderCardText } from '../../src/chats/console/render';
import { HOSTILE_METADATA } from '../../src/simulator/hostile';
import type { AlertEvent, TokenRef } from '../../src/model/events';
import { expectSafeCard } from '../support/cardSafety';
import { T1, W1, W2 } from '../watch/support/fixtures';

const AT = Date.UTC(2026, 10, 23, 12, 0, 0);
const TOKEN: TokenRef = { address: T1, symbol: 'FIX', name: 'Fixture Token', decimals: 6 };
const HASH = '5J6d1UKFyqvQ1Zb9S7vE3uJ4nX2bR8mW6kT1pL9cD3fH7gA2sQ4eY8wV5xN1zM6jK3rB9tU2oI7yP4aS8dF1gH';

function events(token: TokenRef): AlertEvent[] {
  return [
    { kind: 'risk-status', key: 'k1', at: AT, token, from: 'SAFE', to: 'DANGER', flags: [{ flag: 'mintAuthority', from: null, to: W1 }] },
    {
      kind: 'risk-flag',
      key: 'k2',
      at: AT,
      token,
      changes: [
        { flag: 'freezeAuthority', from: W2, to: null },
        { flag: 'mutable', from: 'false', to: 'true' },
        { flag: 'ownerBalance', from: '0', to: '25000000000000' },
      ],
    },
    { kind: 'liquidity', key: 'k3', at: AT, token, pools: [{ poolAddress: W2, from: '120000000000', to: '0', gone: false, dropPct: 100 }] },
    { kind: 'price', key: 'k4', at: AT, token, from: 0.001, to: 0.00125, changePct: 25, previousChangePct: 3, windowSecs: 1_830, priceUsd: 0.19, points: [[AT - 1_800_000, 0.001], [AT, 0.00125]] },
    { kind: 'wallet-trade', key: 'k5', at: AT, token, wallet: W1, side: 'sell', tokenAmount: '123456789', decimals: 6, nativeAmount: '2500000000', amountUsd: 375.5, price: 0.0202, transactionHash: HASH, timestamp: AT / 1000 },
    { kind: 'whale', key: 'k6', at: AT, token, wallet: W2, direction: 'in', fromPct: null, toPct: 4.5 },
  ];
}

describe('alertCard', () => {
  it('a risk change names the token, the old and the new status, and the flags with it', () => {
    const card = alertCard(events(TOKEN)[0] as AlertEvent, null);
    expect(card.title).toBe('Risk SAFE → DANGER: Fixture Token (FIX)');
    expect(card.color).toBe('danger');
    const text = renderCardText(card);
    expect(text).toContain('SAFE');
    expect(text).toContain('DANGER');
    expect(text).toMatch(/Mint authority: renounced → active/);
    expect(card.actions.map((action) => `${action.command} ${action.args.join(' ')}`)).toEqual([`token ${T1}`, `chart ${T1}`, `holders ${T1}`]);
  });

  it('each kind says what changed from what to what', () => {
    const [, flags, liquidity, move, trade, whale] = events(TOKEN).map((event) => alertCard(event, 'my whale'));
    const text = (card: typeof flags) => (card ? `${card.title}\n${card.fields.map((f) => `${f.name}: ${plainText(f.value)}`).join('\n')}` : '');
    expect(text(flags)).toMatch(/Freeze authority: active \(.+\) → renounced/);
    expect(text(flags)).toMatch(/Metadata: immutable → mutable/);
    expect(text(flags)).toMatch(/Owner balance: none → 25M/);
    expect(text(liquidity)).toMatch(/Liquidity pulled/);
    expect(text(liquidity)).toMatch(/120 SOL → 0 SOL \(−100%\)/);
    expect(move?.title).toBe('Price up 25%: Fixture Token (FIX)');
    expect(text(move)).toMatch(/\+25% in 31m/);
    expect(trade?.title).toBe('my whale sold Fixture Token (FIX)');
    expect(text(trade)).toMatch(/Amount: 123\.5 FIX/);
    expect(text(trade)).toMatch(/Received: 2\.5 SOL/);
    expect(text(trade)).toMatch(/Value: \$375\.50/);
    expect(trade?.actions.map((action) => action.command)).toEqual(['token', 'trades', 'wallet']);
    expect(trade?.actions[1]?.args).toEqual([T1, W1]);
    expect(whale?.title).toBe('Whale in: Fixture Token (FIX)');
    expect(text(whale)).toMatch(/under 1% → 4\.5%/);
  });

  it('an owner balance change says the amounts in the token and their share of the supply', () => {
    // 500M MOCHI in all, 6 decimals: 25.2M is 5.04% of it, 17.8M 3.56%.
    const mochi: TokenRef = { address: T1, symbol: 'MOCHI', name: 'Neon Mochi', decimals: 6, totalSupply: '500000000000000' };
    const change = (from: string | null, to: string | null) => flagChangeText({ flag: 'ownerBalance', from, to }, mochi);
    expect(change('25200000000000', '17800000000000')).toBe('Owner balance: 25.2M MOCHI (5.04%) → 17.8M MOCHI (3.56% of supply)');
    expect(change('0', '25200000000000')).toBe('Owner balance: none → 25.2M MOCHI (5.04% of supply)');
    expect(change('25200000000000', null)).toBe('Owner balance: 25.2M MOCHI (5.04% of supply) → none');
    // Without the supply, no share is made up; without decimals the amount is in raw units, no symbol.
    expect(flagChangeText({ flag: 'ownerBalance', from: '0', to: '25200000000000' }, { ...mochi, totalSupply: null })).toBe('Owner balance: none → 25.2M MOCHI');
    expect(flagChangeText({ flag: 'ownerBalance', from: '0', to: '25200' }, { ...mochi, decimals: null })).toBe('Owner balance: none → 25.2K units');
  });

  it('a price move carries a PNG of its window with alertCardWithChart; other kinds and alertCard none', async () => {
    const [status, , , move] = events(TOKEN) as [AlertEvent, AlertEvent, AlertEvent, AlertEvent];
    expect(alertCard(move, null).image).toBeUndefined();
    const card = await alertCardWithChart(move, null);
    expect(card.image?.contentType).toBe('image/png');
    // The PNG signature: the picture was really drawn and encoded.
    expect([...(card.image?.data.slice(0, 4) ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(card.title).toBe(alertCard(move, null).title);
    expect((await alertCardWithChart(status, null)).image).toBeUndefined();
  });

  it('a token without a name shows its address', () => {
    const card = alertCard(events({ address: T1, symbol: '', name: '' })[4] as AlertEvent, null);
    expect(card.title).toMatch(/^\S+ sold \S+…\S+$/);
  });

  it('hostile names, statuses, authorities and labels stay inert', () => {
    for (const hostile of HOSTILE_METADATA) {
      const token: TokenRef = { address: T1, symbol: hostile.symbol, name: hostile.name, decimals: null };
      for (const event of events(token)) {
        const card = alertCard(event, hostile.name);
        expectSafeCard(card);
      }
      const status = alertCard({ kind: 'risk-status', key: 'k', at: AT, token, from: hostile.name, to: '@everyone', flags: [] }, null);
      expectSafeCard(status);
      expect(flagChangeText({ flag: 'mintAuthority', from: null, to: hostile.name }, token)).not.toMatch(/@everyone|<@/);
    }
  });
});
