/**
 * The whole bot against a replay of the service as its vendor documents it
 * (test/support/vendorService.ts, written from ../shared/spec/real-service.md alone, not from the
 * simulator's code), tried as a new user would: the service's endpoints and key in the settings,
 * the protocol left to `auto`, `/track token T all` and `/track wallet W`. What the table
 * measured before the change, each must now show: the key on every upgrade, no frame unreadable,
 * a pump on trades-live told, a holders-live whale told, a risk change only REST shows told, a
 * wallet's trade only wallet-tracker shows told, each once, and no pool account told as a holder.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { RecordingSender } from '../delivery/helpers';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addressFor,
  makeHolderRecord,
  makeToken,
  makeWalletTrade,
  signatureFor,
  startVendorService,
  type VendorService,
} from '../support/vendorService';
import { KEY, chatRef, startHarness, type Harness } from './harness';

const WAIT = { timeout: 15_000, interval: 25 };
const T = addressFor('vendor-e2e:token');
const W = addressFor('vendor-e2e:wallet');
const WHALE = addressFor('vendor-e2e:whale');
const PRICE_SOL = 0.0001;
const SOL_USD = 150;
/** makeToken's supply: a billion whole tokens of 6 decimals. */
const SUPPLY = 1_000_000_000n * 10n ** 6n;

function cardText(card: Card): string {
  return [card.title, plainText(card.description ?? []), ...card.fields.map((f) => `${f.name} ${plainText(f.value)}`)].join('\n');
}

describe('the bot against the vendor’s documented service (replay)', () => {
  let service: VendorService;
  let home: string;
  let h: Harness;
  const chat = chatRef('telegram', '-100777');
  const sender = () => h.senders.get('telegram') as RecordingSender;
  const titles = (): string[] =>
    sender()
      .sent.filter((s) => s.chat.chatId === chat.chatId)
      .map((s) => s.card.title);
  const texts = (): string[] =>
    sender()
      .sent.filter((s) => s.chat.chatId === chat.chatId)
      .map((s) => cardText(s.card));

  beforeAll(async () => {
    service = await startVendorService({ apiKey: KEY });
    const token = makeToken({ address: T, symbol: 'PESIS', priceSol: PRICE_SOL, solUsd: SOL_USD, riskStatus: 'WARNING' });
    service.addToken(token);
    // The holders baseline: one small holder. The pool comes later, on holders-live.
    service.setHolders(T, [makeHolderRecord({ token: T, address: addressFor('vendor-e2e:small'), amount: SUPPLY / 1000n })]);
    // A trade of the wallet before the follow: part of its baseline, never told.
    service.addWalletTrade(
      W,
      makeWalletTrade({
        wallet: W,
        token: T,
        type: 'BUY',
        tokenAmount: 10n ** 9n,
        quoteAmount: 10n ** 8n,
        priceSol: PRICE_SOL,
        priceUsd: PRICE_SOL * SOL_USD,
        usd: 15,
        timestamp: Math.floor(Date.now() / 1000) - 600,
        hash: signatureFor('old trade'),
      }),
    );
    home = mkdtempSync(join(tmpdir(), 'tokenwatch-vendor-'));
    h = await startHarness(service, join(home, 'bot.db'), {
      senders: [new RecordingSender('telegram')],
      env: { TOKEN_POLL_INTERVAL: '1s', WALLET_POLL_INTERVAL: '1s' },
    });
  });

  afterAll(async () => {
    await h?.app.stop();
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
    await service?.close();
  });

  it('reads the vendor’s protocol, and tells each change once, from whichever path saw it', async () => {
    expect(cardText((await h.say(chat, '/status')).card)).toContain('vendor (as the service greeted)');
    expect((await h.say(chat, `/track token ${T} all`)).errorId).toBeNull();
    expect((await h.say(chat, `/track wallet ${W}`)).errorId).toBeNull();
    // Followed where the service streams a token: trades-live, chart-live, holders-live; never token-feed.
    await service.waitFor(
      () =>
        service.subscribers('/ws/trades-live', T) === 1 &&
        service.subscribers('/ws/chart-live', T) === 1 &&
        service.subscribers('/ws/holders-live', T) === 1,
      WAIT.timeout,
    );
    await vi.waitFor(async () => {
      const state = await h.app.store.state.token(T);
      expect(state?.holdersSeenAt ?? null).toBeNull();
      expect(state?.riskStatus).toBe('WARNING');
    }, WAIT);
    expect(service.subscribers('/ws/token-feed')).toBe(0);

    // A +47% pump over five trades on trades-live.
    for (const [step, factor] of [1, 1.09, 1.19, 1.3, 1.47].entries()) {
      service.pushTrade(T, {
        type: 'BUY',
        priceSol: PRICE_SOL * factor,
        priceUsd: PRICE_SOL * factor * SOL_USD,
        tokenAmount: 10n ** 12n,
        quoteAmount: BigInt(Math.round(PRICE_SOL * factor * 1e6 * 1e9)),
        usd: 150,
        hash: signatureFor(`pump ${step}`),
      });
    }
    await vi.waitFor(() => expect(titles().filter((title) => title.startsWith('Price up'))).toHaveLength(1), WAIT);

    // A new wallet holding 3% of the supply on holders-live; and the pool (a bonding curve holds
    // most of a young token under its own address) coming to hold 81%: no whale, ever.
    const pool = Object.keys(makeToken({ address: T, symbol: 'PESIS', priceSol: PRICE_SOL }).liquidityPools)[0] as string;
    service.pushHolder(T, { address: pool, currentAmount: ((SUPPLY * 81n) / 100n).toString(), holderSinceIso: '2025-01-10T00:00:00.000Z' });
    service.pushHolder(T, {
      address: WHALE,
      currentAmount: ((SUPPLY * 3n) / 100n).toString(),
      holderSinceIso: new Date().toISOString(),
      bought: { amount: ((SUPPLY * 3n) / 100n).toString(), usd: '4500', transactions: 1 },
    });
    await vi.waitFor(() => expect(titles().filter((title) => title.startsWith('Whale in'))).toHaveLength(1), WAIT);

    // A risk change only token-data shows.
    service.setRisk(T, 'DANGER');
    await vi.waitFor(() => expect(texts().filter((text) => text.includes('WARNING → DANGER'))).toHaveLength(1), WAIT);

    // A trade of the followed wallet only wallet-tracker shows.
    service.addWalletTrade(
      W,
      makeWalletTrade({
        wallet: W,
        token: T,
        type: 'BUY',
        tokenAmount: 5n * 10n ** 12n,
        quoteAmount: 5n * 10n ** 9n,
        priceSol: PRICE_SOL,
        priceUsd: PRICE_SOL * SOL_USD,
        usd: 750,
        hash: signatureFor('new trade'),
      }),
    );
    await vi.waitFor(() => expect(texts().filter((text) => text.includes('$750'))).toHaveLength(1), WAIT);

    // Each once: the polls and a reconciliation see the same state again and tell nothing more.
    const told = titles().length;
    await h.app.reconcile.runNow();
    const polls = service.requests.length;
    await service.waitFor(() => service.requests.length >= polls + 4, WAIT.timeout);
    await h.app.watcher.idle();
    await h.app.delivery.drain();
    expect(titles()).toHaveLength(told);
    expect(titles().filter((title) => title.startsWith('Price'))).toHaveLength(1);
    expect(texts().filter((text) => text.includes(signatureFor('old trade')))).toHaveLength(0);

    // The one holder alert is the whale's: none names the pool as a holder (cards show an address as its ends).
    const short = (address: string): string => `${address.slice(0, 4)}…${address.slice(-4)}`;
    const holderAlerts = texts().filter((text) => /whale|holder|insider/i.test(text.split('\n')[0] ?? ''));
    expect(holderAlerts).toHaveLength(1);
    expect(holderAlerts[0]).toContain(short(WHALE));
    expect(texts().filter((text) => text.includes(short(pool)))).toHaveLength(0);
    // Every upgrade carried the key; no frame was unreadable.
    expect(service.upgrades.length).toBeGreaterThanOrEqual(3);
    for (const upgrade of service.upgrades) expect(upgrade.apiKeyHeader).toBe(KEY);
    const { counters } = h.app.streams.status();
    expect(counters.unreadable).toBe(0);
    expect(counters.unknown).toBe(0);
  });
});
