import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatRef } from '../../src/model/chat';
import type { NewFollow } from '../../src/store/store';
import type { NewCall } from '../../src/store/calls';
import type { FollowOptions } from '../../src/model/follow';
import type { PriceEvent } from '../../src/model/events';
import type { TokenSnapshot, WalletSnapshot } from '../../src/model/snapshot';

/** A fresh folder per test; the returned function removes it. */
export function tempDir(): { dir: string; path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-store-'));
  return { dir, path: join(dir, 'tokenwatch.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function chat(chatId: string, platform: ChatRef['platform'] = 'telegram', threadId: string | null = null): ChatRef {
  return { platform, chatId, threadId, scopeId: platform === 'discord' ? 'guild-1' : null };
}

export const DEFAULT_OPTIONS: FollowOptions = { events: [], minUsd: 0, thresholdPct: 10, side: 'both' };

export function newFollow(to: ChatRef, address: string, overrides: Partial<NewFollow> = {}): NewFollow {
  return {
    chat: to,
    kind: 'token',
    address,
    label: null,
    options: DEFAULT_OPTIONS,
    addedBy: 'user-1',
    now: new Date(1_700_000_000_000),
    ...overrides,
  };
}

export function tokenSnapshot(address: string, seenAt = 1_700_000_000_000): TokenSnapshot {
  return {
    address,
    symbol: 'TOK',
    name: 'Token',
    riskStatus: 'SAFE',
    mintAuthority: null,
    freezeAuthority: null,
    isMutable: false,
    ownerBalance: '1000',
    pools: [{ poolAddress: 'pool-1', quoteReserves: '5000000000' }],
    priceNative: 0.001,
    priceUsd: 0.2,
    holdersCount: 42,
    priceHistory: [[seenAt - 1000, 0.001]],
    whales: { whale1: '123' },
    seenAt,
  };
}

export function walletSnapshot(address: string): WalletSnapshot {
  return { address, newestTrade: 'tx1:0', newestTimestamp: 1_700_000_000, seenAt: 1_700_000_000_000 };
}

export function priceEvent(address: string, key: string): PriceEvent {
  return {
    key,
    kind: 'price',
    at: 1_700_000_000_000,
    token: { address, symbol: 'TOK', name: 'Token' },
    from: 0.001,
    to: 0.002,
    changePct: 100,
    windowSecs: 300,
    priceUsd: 0.4,
  };
}

/** When the calls of `newCall` are made, unless told otherwise. */
export const CALLED_AT = new Date(1_800_000_000_000);

/** A call of `address` by `userId` in `where`, at CALLED_AT, at 0.001 SOL. */
export function newCall(where: ChatRef, address: string, userId: string, overrides: Partial<NewCall> = {}): NewCall {
  return {
    chat: where,
    address,
    symbol: 'TOK',
    name: 'Token',
    userId,
    userName: `name of ${userId}`,
    messageId: `m-${userId}-${address}`,
    calledAt: CALLED_AT,
    priceSol: 0.001,
    priceUsd: 0.15,
    solUsd: 150,
    mcapSol: 1_000,
    mcapUsd: 150_000,
    ...overrides,
  };
}
