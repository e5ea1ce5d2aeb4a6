/** A followed wallet bought or sold; the follow's side and minimum USD apply. */
import { bold, field, link, rich, type Card } from '../../cards/card';
import { explorerTxUrl } from '../../cards/explorer';
import { LABEL_MAX, UNKNOWN } from '../../cards/tokenFacts';
import type { WalletTradeEvent } from '../../model/events';
import { formatTokenAmount, price, shortAddress, usd } from '../../text/format';
import { untrusted } from '../../text/sanitize';
import { base, lamports, marketFields, muteAction, tokenName, walletLink } from '../cardParts';
import { detectWalletTrades } from '../detectors/walletTrade';
import { defineAlertKind } from '../kind';

const SIDE_WORDS = { buy: 'buys', sell: 'sells', both: 'buys and sells' } as const;

function walletTradeCard(event: WalletTradeEvent, label: string | null): Card {
  const who = label === null ? shortAddress(untrusted(event.wallet, 64, '?')) : untrusted(label, LABEL_MAX, shortAddress(untrusted(event.wallet, 64, '?')));
  let amount = UNKNOWN;
  try {
    const units = BigInt(event.tokenAmount);
    amount = event.decimals === null ? `${formatTokenAmount(units, 0)} units` : formatTokenAmount(units, event.decimals);
  } catch {
    // left unknown
  }
  const symbol = untrusted(event.token.symbol, 16);
  const fields = [
    field('Amount', rich(bold(amount), symbol === '' ? '' : ` ${symbol}`), true),
    field(event.side === 'buy' ? 'Paid' : 'Received', event.nativeAmount === null ? UNKNOWN : lamports(event.nativeAmount), true),
    field('Value', event.amountUsd === null ? UNKNOWN : usd(event.amountUsd), true),
    field('Price', event.price === null ? UNKNOWN : `${price(event.price)} SOL`, true),
    field('Wallet', walletLink(event.wallet), true),
    field('Transaction', [link(shortAddress(untrusted(event.transactionHash, 100, '?')), explorerTxUrl(event.transactionHash))], true),
    // The traded token's market, when the watcher follows it (a token no chat follows has none at hand).
    ...marketFields(event.token, { withPrice: false }),
  ];
  const verb = event.side === 'buy' ? 'bought' : 'sold';
  return base(
    event,
    `${who} ${verb} ${tokenName(event.token)}`,
    fields,
    [
      { label: 'Token', command: 'token', args: [event.token.address] },
      { label: 'Trades', command: 'trades', args: [event.token.address, event.wallet] },
      { label: 'Wallet', command: 'wallet', args: [event.wallet] },
      muteAction(event.wallet),
    ],
  );
}

export const walletTradeKind = defineAlertKind({
  name: 'wallet-trade',
  family: 'wallet',
  words: ['trades'],
  describe: (options) => `${SIDE_WORDS[options.side]}${options.minUsd > 0 ? ` of at least ${usd(options.minUsd)}` : ''}`,
  detector: { input: 'trades', detect: (last, wallet, trades, at, name) => detectWalletTrades(last, wallet, trades, at, name) },
  // A trade whose USD value is unknown passes only a minimum of 0.
  tells(follow, event, wants) {
    if (!wants('wallet-trade')) return false;
    const { side, minUsd } = follow.options;
    if (side !== 'both' && side !== event.side) return false;
    return minUsd <= 0 || (event.amountUsd !== null && event.amountUsd >= minUsd);
  },
  card: walletTradeCard,
});
