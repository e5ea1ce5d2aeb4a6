/**
 * USD filled in when an alert is sent, not only when it was seen. The watcher prices what it sees
 * with the SOL→USD rate it knows at that moment, and at start-up it knows none yet: the first
 * alerts were stored in SOL alone. Delivery builds every card from the stored event anyway, so the
 * figures a stored event lacks in USD are filled in here from the rate known at send time, and
 * when none is known yet the send waits for one to be derived, for USD_WAIT_MS at most. A backlog
 * digest is built from the same cards, so an alert and a digest sent together agree on USD.
 *
 * Figures the event already carries in USD are kept as seen: a rate read later would restate them.
 */
import type { AlertEvent, TokenRef } from '../model/events';
import type { AlertCardBuilder } from './cardCache';

/** The longest a send waits for a rate to be derived; after it the alert goes out in SOL. */
export const USD_WAIT_MS = 5_000;

const LAMPORTS_PER_SOL = 1e9;

/** The rate to price an alert with: at once when one is known, else derived (any token's trades give it). */
export type SendRate = (tokenAddress: string) => Promise<number | null>;

function tokenLacksUsd(token: TokenRef): boolean {
  const market = token.market;
  return market !== undefined && market.priceUsd === null && market.priceNative !== null;
}

/** Whether the event has a SOL figure it does not also give in USD. */
export function lacksUsd(event: AlertEvent): boolean {
  if (tokenLacksUsd(event.token)) return true;
  if (event.kind === 'price') return event.priceUsd === null;
  if (event.kind === 'wallet-trade') return event.amountUsd === null && event.nativeAmount !== null;
  return false;
}

function lamportsInSol(value: string): number | null {
  try {
    const sol = Number(BigInt(value)) / LAMPORTS_PER_SOL;
    return Number.isFinite(sol) ? sol : null;
  } catch {
    return null;
  }
}

function tokenWithUsd(token: TokenRef, solUsd: number): TokenRef {
  const market = token.market;
  if (market === undefined || !tokenLacksUsd(token) || market.priceNative === null) return token;
  return { ...token, market: { ...market, priceUsd: market.priceNative * solUsd } };
}

/** The event with its missing USD figures priced at `solUsd` (a new object; the stored one is left as it is). */
export function withUsd(event: AlertEvent, solUsd: number): AlertEvent {
  if (!(Number.isFinite(solUsd) && solUsd > 0)) return event;
  const token = tokenWithUsd(event.token, solUsd);
  if (event.kind === 'price') return { ...event, token, priceUsd: event.priceUsd ?? event.to * solUsd };
  if (event.kind === 'wallet-trade' && event.amountUsd === null && event.nativeAmount !== null) {
    const sol = lamportsInSol(event.nativeAmount);
    return { ...event, token, amountUsd: sol === null ? null : sol * solUsd };
  }
  return { ...event, token };
}

/** `rate`, or null once `ms` have passed without an answer (or when it fails). */
function rateWithin(rate: SendRate, tokenAddress: string, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    // A pending wait must not keep a stopping process alive.
    timer.unref();
    rate(tokenAddress).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

/** The card builder `build`, given events whose missing USD figures are filled in at send time. */
export function usdAtSend(build: AlertCardBuilder, rate: SendRate, waitMs = USD_WAIT_MS): AlertCardBuilder {
  return async (event, label) => {
    if (!lacksUsd(event)) return build(event, label);
    const solUsd = await rateWithin(rate, event.token.address, waitMs);
    return build(solUsd === null ? event : withUsd(event, solUsd), label);
  };
}
