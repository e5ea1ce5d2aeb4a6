/**
 * Graduation: a token whose pools were all on its launch protocol got a pool on another; the card
 * names the new pool, its protocol and its liquidity.
 *
 * Graduation: a token whose pools were all on one protocol (its launch protocol) gets a pool on
 * another. Read from the pools of token-feed frames and token-data answers, each pool with the
 * `protocol` it was last shown with.
 *
 * Decisions, where the spec is silent: the launch protocol is the one protocol the token's pools
 * shared, not the token's `origin`, because `origin` names a launchpad ("pump.fun") in words the
 * pool protocols do not use ("pumpswap"), and the spec gives no mapping between them; `origin` is
 * carried to the card as where it was launched. A pool whose protocol is not shown (empty) is
 * neither the launch protocol nor another: while any known pool lacks one, nothing is compared.
 * A token's first pools are not a graduation (there was nothing to graduate from).
 *
 * Once: after it, the token's pools are on two protocols, which no later pool changes. Key:
 * token and the new pool, so the stream and a reconciliation seeing that pool make one alert.
 */
import { bold, field, rich, type Card } from '../../cards/card';
import { untrusted } from '../../text/sanitize';
import { base, lamports, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { defineAlertKind } from '../kind';
import type { TokenSnapshot } from '../../model/snapshot';
import type { EventBase } from '../../model/events';
import { eventKey, tokenChange } from '../detect/eventBase';

export interface GraduationEvent extends EventBase {
  kind: 'graduation';
  poolAddress: string;
  /** The new pool's protocol and the one every pool was on before (untrusted text). */
  protocol: string;
  launchProtocol: string;
  /** The new pool's SOL reserves, lamports (decimal string); null when unread. */
  quoteReserves: string | null;
}

/** The one protocol every pool is on; null when there are none, one is not shown, or they differ. */
function soleProtocol(pools: TokenSnapshot['pools']): string | null {
  let sole: string | null = null;
  for (const pool of pools) {
    const protocol = pool.protocol ?? null;
    if (protocol === null || protocol === '') return null;
    if (sole === null) sole = protocol;
    else if (sole.toLowerCase() !== protocol.toLowerCase()) return null;
  }
  return sole;
}

export function detectGraduation(last: TokenSnapshot, next: TokenSnapshot): GraduationEvent[] {
  // The usual push keeps the previous pool list itself: nothing to compare.
  if (next.pools === last.pools) return [];
  const launch = soleProtocol(last.pools);
  if (launch === null) return [];
  const known = new Set(last.pools.map((pool) => pool.poolAddress));
  for (const pool of next.pools) {
    if (known.has(pool.poolAddress)) continue;
    const protocol = pool.protocol ?? null;
    if (protocol === null || protocol === '' || protocol.toLowerCase() === launch.toLowerCase()) continue;
    return [
      {
        kind: 'graduation',
        key: eventKey('graduation', next.address, [pool.poolAddress]),
        ...tokenChange(last, next),
        poolAddress: pool.poolAddress,
        protocol,
        launchProtocol: launch,
        quoteReserves: pool.quoteReserves,
      },
    ];
  }
  return [];
}

declare module '../../model/events' {
  interface AlertEventsByKind {
    graduation: GraduationEvent;
  }
}

/** Protocol names are the service's text: cleaned and cut like any name. */
const PROTOCOL_MAX = 32;

function graduationCard(event: GraduationEvent): Card {
  const from = untrusted(event.launchProtocol, PROTOCOL_MAX, '?');
  const to = untrusted(event.protocol, PROTOCOL_MAX, '?');
  const fields = [
    field('Protocol', rich(`${from} → `, bold(to)), true),
    field('New pool', walletLink(event.poolAddress), true),
    field('Pool liquidity', lamports(event.quoteReserves), true),
    field('Token', tokenLink(event.token), true),
    ...marketFields(event.token),
  ];
  return base(event, `Graduated: ${tokenName(event.token)}`, fields, tokenActions(event.token));
}

export const graduationKind = defineAlertKind({
  name: 'graduation',
  family: 'token',
  words: ['graduated', 'graduations'],
  describe: () => 'graduation',
  detector: { input: 'token', detect: (last, next) => detectGraduation(last, next) },
  card: graduationCard,
});
