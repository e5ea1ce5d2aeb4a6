/**
 * Wallets moving together: N of a chat's followed wallets bought (or sold) one token within the
 * chat's window. Found for a chat from the trades it was told of (src/alerts/walletCluster.ts), so
 * it has no detector of its own; the card names each wallet with what it traded.
 */
import { bold, field, rich, type Card, type CardField } from '../../cards/card';
import { LABEL_MAX, UNKNOWN } from '../../cards/tokenFacts';
import { changeWindow, formatTokenAmount, shortAddress, usd } from '../../text/format';
import { untrusted } from '../../text/sanitize';
import { base, lamports, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { defineAlertKind } from '../kind';
import type { ClusterWallet, WalletClusterEvent } from '../walletCluster';

/** Wallet lines on a card: a cluster is a handful; more would pass a card's field limits. */
const SHOWN = 10;

function amountOf(wallet: ClusterWallet, decimals: number | null, symbol: string): string {
  let tokens = UNKNOWN;
  try {
    const units = BigInt(wallet.tokenAmount);
    tokens = decimals === null ? `${formatTokenAmount(units, 0)} units` : formatTokenAmount(units, decimals);
  } catch {
    // left unknown
  }
  const sol = wallet.nativeAmount === null ? '' : ` for ${lamports(wallet.nativeAmount)}`;
  const value = wallet.amountUsd === null ? '' : ` (${usd(wallet.amountUsd)})`;
  return `${tokens}${symbol === '' ? '' : ` ${symbol}`}${sol}${value}${wallet.trades > 1 ? `, ${wallet.trades} trades` : ''}`;
}

function walletField(wallet: ClusterWallet, decimals: number | null, symbol: string): CardField {
  const fallback = shortAddress(untrusted(wallet.wallet, 64, '?'));
  const name = wallet.label === null ? fallback : untrusted(wallet.label, LABEL_MAX, fallback);
  return field(name, rich(walletLink(wallet.wallet), ` ${amountOf(wallet, decimals, symbol)}`));
}

function walletClusterCard(event: WalletClusterEvent): Card {
  const symbol = untrusted(event.token.symbol, 16);
  const verb = event.side === 'buy' ? 'bought' : 'sold';
  const more = event.wallets.length - SHOWN;
  const fields = [
    field(
      'Wallets',
      rich(
        bold(String(event.wallets.length)),
        ` of yours ${verb} within ${changeWindow(Math.max(0, event.lastTimestamp - event.firstTimestamp))}`,
      ),
      true,
    ),
    field('Token', tokenLink(event.token), true),
    ...event.wallets.slice(0, SHOWN).map((wallet) => walletField(wallet, event.decimals, symbol)),
    ...(more > 0 ? [field('More', `${more} more wallets`)] : []),
    ...marketFields(event.token),
  ];
  return base(event, `${event.wallets.length} wallets ${verb} ${tokenName(event.token)}`, fields, tokenActions(event.token));
}

export const walletClusterKind = defineAlertKind({
  name: 'wallet-cluster',
  family: 'chat',
  words: [],
  describe: () => 'wallets moving together',
  card: walletClusterCard,
});
