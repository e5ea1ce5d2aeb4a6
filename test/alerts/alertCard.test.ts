/**
 * Alert cards: every kind names the token and what changed from what to what, carries actions to
 * look closer, and stays safe with the simulator's hostile names, statuses, authorities and labels.
 */
import { describe, expect, it } from 'vitest';
import { alertCard, alertCardWithChart } from '../../src/alerts/alertCard';
import { flagChangeText } from '../../src/alerts/kinds/riskFlag';
import { plainText } from '../../src/cards/card';
import { renderCardText } from '../../src/chats/console/render';
import { HOSTILE_METADATA } from 'tmds-simulator';
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
      points: [
        [AT - 1_800_000, 0.001],
        [AT, 0.00125],
      ],
    },
    {
      kind: 'wallet-trade',
      key: 'k5',
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
    expect(card.actions.map((action) => `${action.command} ${action.args.join(' ')}`)).toEqual([
      `token ${T1}`,
      `chart ${T1}`,
      `holders ${T1}`,
      `mute ${T1} 1h`,
    ]);
  });

  it('each kind says what changed from what to what', () => {
    const [, flags, liquidity, move, trade, whale] = events(TOKEN).map((event) => alertCard(event, 'my whale'));
    const text = (card: typeof flags) =>
      card ? `${card.title}\n${card.fields.map((f) => `${f.name}: ${plainText(f.value)}`).join('\n')}` : '';
    expect(text(flags)).toMatch(/Freeze authority: active \(.+\) → renounced/);
    expect(text(flags)).toMatch(/Metadata: immutable → mutable/);
    expect(text(flags)).toMatch(/Owner balance: none → 25M/);
    expect(text(liquidity)).toMatch(/Liquidity pulled/);
    expect(text(liquidity)).toMatch(/120 SOL → 0 SOL, 100% pulled/);
    expect(move?.title).toBe('Price up 25%: Fixture Token (FIX)');
    expect(text(move)).toMatch(/\+25% in 31m/);
    expect(trade?.title).toBe('my whale sold Fixture Token (FIX)');
    expect(text(trade)).toMatch(/Amount: 123\.5 FIX/);
    expect(text(trade)).toMatch(/Received: 2\.5 SOL/);
    expect(text(trade)).toMatch(/Value: \$375\.50/);
    expect(trade?.actions.map((action) => action.command)).toEqual(['token', 'trades', 'wallet', 'mute']);
    expect(trade?.actions[1]?.args).toEqual([T1, W1]);
    expect(whale?.title).toBe('Whale in: Fixture Token (FIX)');
    expect(text(whale)).toMatch(/under 1% → 4\.5%/);
  });

  it('every token alert gives the price, 1h change, market cap, liquidity and risk status at the time, its badge and colour following the status', () => {
    // 0.00125 SOL a token, $0.25 (200 $/SOL), up 25% over the hour kept; 1B tokens; 300 SOL in pools.
    const market = { priceNative: 0.00125, priceUsd: 0.25, changePct: 25, changeSecs: 3_600, marketCapSol: 1_250_000, liquiditySol: 300 };
    const token: TokenRef = { ...TOKEN, riskStatus: 'WARNING', market };
    for (const event of events(token)) {
      if (event.kind === 'wallet-trade') continue;
      const card = alertCard(event, null);
      const shown = Object.fromEntries(card.fields.map((f) => [f.name, plainText(f.value)]));
      if (event.kind !== 'price') expect(shown.Price).toBe('$0.25 · 0.00125 SOL');
      // A price move says its change once, in its Change field.
      expect(shown['1h']).toBe(event.kind === 'price' ? undefined : '+25%');
      expect(shown['Market cap']).toBe('$250M · 1.25M SOL');
      expect(shown.Liquidity).toBe('$60K · 300 SOL');
      // A risk change shows its own status field; every other alert the token's status now.
      if (event.kind === 'risk-status') expect(shown.Status).toBe('SAFE → DANGER');
      else {
        expect(shown.Risk).toBe('WARNING');
        expect(card.color).toBe('warning');
      }
    }
    const early = alertCard({ ...(events({ ...token, market: { ...market, changePct: -4, changeSecs: 720 } })[2] as AlertEvent) }, null);
    // Under the hour the field is not named "1h": it says the window it covers.
    expect(early.fields.find((f) => f.name === '1h')).toBeUndefined();
    expect(plainText(early.fields.find((f) => f.name === 'Change')?.value ?? [])).toBe('−4% in 12m, since first seen');
    const unread = alertCard(
      events({ ...token, riskStatus: null, market: { ...market, priceUsd: null, marketCapSol: null } })[5] as AlertEvent,
      null,
    );
    const unreadFields = Object.fromEntries(unread.fields.map((f) => [f.name, plainText(f.value)]));
    expect([unreadFields.Price, unreadFields['Market cap'], unreadFields.Liquidity, unreadFields.Risk]).toEqual([
      '0.00125 SOL',
      '—',
      '300 SOL',
      '—',
    ]);
    expect(unread.color).toBe('neutral');
  });

  it('a risk change with no flag changed names the flags that make the new status', () => {
    const mochi: TokenRef = { address: T1, symbol: 'MOCHI', name: 'Neon Mochi', decimals: 6, totalSupply: '500000000000000' };
    const flagsNow = (mint: string | null, mutable: string, owner: string) => [
      { flag: 'mintAuthority' as const, value: mint },
      { flag: 'freezeAuthority' as const, value: null },
      { flag: 'mutable' as const, value: mutable },
      { flag: 'ownerBalance' as const, value: owner },
    ];
    const behind = (from: string, to: string, now: ReturnType<typeof flagsNow>) =>
      plainText(
        alertCard({ kind: 'risk-status', key: 'k', at: AT, token: mochi, from, to, flags: [], flagsNow: now }, null).fields.find(
          (f) => f.name === 'Behind it',
        )?.value ?? [],
      );
    expect(behind('SAFE', 'DANGER', flagsNow(W1, 'true', '30000000000000')).split('\n')).toEqual([
      `Mint authority: active (${W1.slice(0, 4)}…${W1.slice(-4)})`,
      'Metadata: mutable',
      'Owner balance: 30M MOCHI (6% of supply)',
    ]);
    expect(behind('DANGER', 'SAFE', flagsNow(null, 'false', '0')).split('\n')).toEqual([
      'Mint authority: renounced',
      'Freeze authority: renounced',
      'Metadata: immutable',
      'Owner balance: none',
    ]);
    expect(behind('SAFE', 'WARNING', flagsNow(null, 'false', '1000000'))).toMatch(
      /^No risk flag is set; the service weighs more than the flags/,
    );
    // Flags that changed with the status are what is behind it: named as changes, not again as they stand.
    const changed = alertCard(
      {
        kind: 'risk-status',
        key: 'k',
        at: AT,
        token: mochi,
        from: 'SAFE',
        to: 'DANGER',
        flags: [{ flag: 'mintAuthority', from: null, to: W1 }],
        flagsNow: flagsNow(W1, 'false', '0'),
      },
      null,
    );
    expect(changed.fields.map((f) => f.name)).toContain('Changed with it');
    expect(changed.fields.map((f) => f.name)).not.toContain('Behind it');
  });

  it('a liquidity alert names each pool with a link, its SOL reserves before and after, and the share pulled', () => {
    const card = alertCard(
      {
        kind: 'liquidity',
        key: 'k',
        at: AT,
        token: TOKEN,
        pools: [
          { poolAddress: W2, from: '120000000000', to: '30000000000', gone: false, dropPct: 75 },
          { poolAddress: W1, from: '5000000000', to: null, gone: true, dropPct: 100 },
        ],
      },
      null,
    );
    const pools = card.fields.find((f) => f.name === 'SOL reserves (peak → now)')?.value ?? [];
    expect(plainText(pools).split('\n')).toEqual([
      `Pool ${W2.slice(0, 4)}…${W2.slice(-4)}: 120 SOL → 30 SOL, 75% pulled`,
      `Pool ${W1.slice(0, 4)}…${W1.slice(-4)}: 5 SOL → gone, 100% pulled`,
    ]);
    expect(pools.filter((span) => span.url !== undefined).map((span) => span.url)).toEqual([
      `https://solscan.io/account/${W2}`,
      `https://solscan.io/account/${W1}`,
    ]);
  });

  it('a whale alert gives the wallet, its share of supply before and after, and a button to /wallet', () => {
    const card = alertCard(
      { kind: 'whale', key: 'k', at: AT, token: TOKEN, wallet: W2, direction: 'out', fromPct: 3.25, toPct: 0.5 },
      null,
    );
    expect(card.title).toBe('Whale out: Fixture Token (FIX)');
    expect(plainText(card.fields.find((f) => f.name === 'Share of supply')?.value ?? [])).toBe('3.25% → 0.5%');
    expect(card.fields.find((f) => f.name === 'Wallet')?.value[0]?.url).toBe(`https://solscan.io/account/${W2}`);
    expect(card.actions.find((action) => action.label === 'Wallet')).toEqual({ label: 'Wallet', command: 'wallet', args: [W2] });
  });

  it('every alert carries a Mute 1h button for the follow it came from', () => {
    for (const event of events(TOKEN)) {
      const mute = alertCard(event, null).actions.find((action) => action.label === 'Mute 1h');
      expect(mute).toEqual({ label: 'Mute 1h', command: 'mute', args: [event.kind === 'wallet-trade' ? W1 : T1, '1h'] });
    }
  });

  it('an owner balance change says the amounts in the token and their share of the supply', () => {
    // 500M MOCHI in all, 6 decimals: 25.2M is 5.04% of it, 17.8M 3.56%.
    const mochi: TokenRef = { address: T1, symbol: 'MOCHI', name: 'Neon Mochi', decimals: 6, totalSupply: '500000000000000' };
    const change = (from: string | null, to: string | null) => flagChangeText({ flag: 'ownerBalance', from, to }, mochi);
    expect(change('25200000000000', '17800000000000')).toBe('Owner balance: 25.2M MOCHI (5.04%) → 17.8M MOCHI (3.56% of supply)');
    expect(change('0', '25200000000000')).toBe('Owner balance: none → 25.2M MOCHI (5.04% of supply)');
    expect(change('25200000000000', null)).toBe('Owner balance: 25.2M MOCHI (5.04% of supply) → none');
    // Without the supply, no share is made up; without decimals the amount is in raw units, no symbol.
    expect(flagChangeText({ flag: 'ownerBalance', from: '0', to: '25200000000000' }, { ...mochi, totalSupply: null })).toBe(
      'Owner balance: none → 25.2M MOCHI',
    );
    expect(flagChangeText({ flag: 'ownerBalance', from: '0', to: '25200' }, { ...mochi, decimals: null })).toBe(
      'Owner balance: none → 25.2K units',
    );
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
