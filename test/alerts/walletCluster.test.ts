/** Wallets moving together: N different followed wallets trading one token on one side within the window. */
import { describe, expect, it } from 'vitest';
import { findClusters, type TradeTold } from '../../src/alerts/walletCluster';
import { alertKind } from '../../src/alerts/registry';
import { plainText } from '../../src/cards/card';

const T = 1_800_000_000;
const TOKEN = 'TokenC1uster1111111111111111111111111111111';
const OTHER = 'TokenOther111111111111111111111111111111111';

let n = 0;
function told(wallet: string, secs: number, side: 'buy' | 'sell' = 'buy', token = TOKEN, sol: string | null = '1000000000'): TradeTold {
  n += 1;
  return {
    event: {
      kind: 'wallet-trade',
      key: `wallet-trade:${wallet}:${n}`,
      at: (T + secs) * 1000,
      token: { address: token, symbol: 'C', name: 'Cluster' },
      wallet,
      side,
      tokenAmount: '500',
      decimals: 0,
      nativeAmount: sol,
      amountUsd: 150,
      price: null,
      transactionHash: `tx${n}`,
      timestamp: T + secs,
    },
    label: wallet === 'W1' ? '<b>@everyone</b>' : null,
  };
}

const SETTING = { wallets: 3, windowSecs: 1_800 };

describe('findClusters', () => {
  it('finds three wallets buying one token within 30 minutes, naming each with its amounts summed', () => {
    const trades = [told('W1', 0), told('W1', 60, 'buy', TOKEN, null), told('W2', 600), told('W3', 1_700)];
    const [cluster, ...rest] = findClusters(trades, SETTING, (T + 1_800) * 1000);
    expect(rest).toEqual([]);
    expect(cluster).toMatchObject({
      kind: 'wallet-cluster',
      side: 'buy',
      required: 3,
      windowSecs: 1_800,
      firstTimestamp: T,
      lastTimestamp: T + 1_700,
    });
    expect(cluster?.wallets).toEqual([
      { wallet: 'W1', label: '<b>@everyone</b>', trades: 2, tokenAmount: '1000', nativeAmount: '1000000000', amountUsd: 300 },
      { wallet: 'W2', label: null, trades: 1, tokenAmount: '500', nativeAmount: '1000000000', amountUsd: 150 },
      { wallet: 'W3', label: null, trades: 1, tokenAmount: '500', nativeAmount: '1000000000', amountUsd: 150 },
    ]);
  });

  it('finds none when the wallets are too far apart, are the same wallet, or bought different tokens', () => {
    expect(findClusters([told('W1', 0), told('W2', 600), told('W3', 1_801)], SETTING, 0)).toEqual([]);
    expect(findClusters([told('W1', 0), told('W1', 10), told('W2', 20)], SETTING, 0)).toEqual([]);
    expect(findClusters([told('W1', 0), told('W2', 10), told('W3', 20, 'buy', OTHER)], SETTING, 0)).toEqual([]);
    expect(findClusters([told('W1', 0), told('W2', 10), told('W3', 20, 'sell')], SETTING, 0)).toEqual([]);
  });

  it('tells selling apart from buying: a second alert with its own key', () => {
    const trades = [
      told('W1', 0),
      told('W2', 10),
      told('W3', 20),
      told('W1', 5_000, 'sell'),
      told('W2', 5_100, 'sell'),
      told('W3', 5_200, 'sell'),
    ];
    const clusters = findClusters(trades, SETTING, 0);
    expect(clusters.map((cluster) => cluster.side).sort()).toEqual(['buy', 'sell']);
    expect(new Set(clusters.map((cluster) => cluster.key)).size).toBe(2);
  });

  it('gives the same key for the same token, side and setting whatever trades made it, and another for another setting', () => {
    const early = findClusters([told('W1', 0), told('W2', 10), told('W3', 20)], SETTING, 1);
    const later = findClusters([told('W1', 0), told('W2', 10), told('W3', 20), told('W4', 30)], SETTING, 2);
    expect(later[0]?.key).toBe(early[0]?.key);
    expect(findClusters([told('W1', 0), told('W2', 10), told('W3', 20)], { wallets: 2, windowSecs: 1_800 }, 1)[0]?.key).not.toBe(
      early[0]?.key,
    );
  });

  it('counts one trade told twice once', () => {
    const trade = told('W1', 0);
    expect(findClusters([trade, trade, told('W2', 10)], SETTING, 0)).toEqual([]);
  });
});

describe('the wallet-cluster card', () => {
  it("names each wallet by the chat's label, cleaned, with its amounts, and pings nobody", () => {
    const [cluster] = findClusters([told('W1', 0), told('W2', 600), told('W3', 1_700)], SETTING, (T + 1_800) * 1000);
    const kind = alertKind('wallet-cluster');
    if (cluster === undefined || kind === undefined) throw new Error('no cluster or no kind');
    const card = kind.card(cluster, null);
    expect(card.title).toBe('3 wallets bought Cluster (C)');
    const names = card.fields.map((f) => f.name);
    // The label is the chat's own text: kept as written, with the mention defused (renderers escape the tags).
    expect(names.join(' ')).not.toContain('@everyone');
    expect(names.join(' ')).toContain('＠everyone');
    const text = card.fields.map((f) => `${f.name} ${plainText(f.value)}`).join('\n');
    expect(text).toContain('1 SOL');
    expect(text).toContain('within 28m');
  });
});
