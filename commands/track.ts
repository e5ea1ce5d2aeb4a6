/**
 * /track token <address> [events] [threshold] [direction] and /track wallet <address> [label] [minusd] [side]:
 * follow a token or a wallet in this chat; /track cluster <wallets> [window] sets the chat's wallets
 * moving together (docs/alerts.md). One definition, two forms: the first option, `kind`,
 * chooses the form, and each later option names the forms it belongs to (`forms`), so typed text
 * fills `/track wallet ADDR whale 500 buy` in the wallet's order and Discord registers one
 * subcommand per kind (see docs/delivery.md).
 */
import { rich } from '../src/cards/card';
import { trackingField, walletTrackedCard } from '../src/follows/followCards';
import { defineCommand } from '../src/dispatch/command';
import { followsOf } from '../src/dispatch/services';
import { UsageError } from '../src/usage';
import { DEFAULT_OPTIONS, MAX_LABEL_LENGTH } from '../src/follows/followService';
import { kindsOfFamily } from '../src/alerts/registry';
import type { PriceDirection, TradeSide } from '../src/model/follow';
import type { CommandContext } from '../src/dispatch/command';
import { ServiceMissingError } from '../src/dispatch/services';
import { notice } from '../src/follows/followCards';
import { CLUSTER_WALLETS, CLUSTER_WINDOW_SECS } from '../src/store/alertControlRows';
import { changeWindow } from '../src/text/format';

/** The window when none is given: the example, half an hour. */
const DEFAULT_CLUSTER_WINDOW_SECS = 1_800;

/** /track cluster N [WINDOW]: the chat's setting for wallets moving together (0 turns it off). */
async function trackCluster(wallets: number | undefined, window: number | undefined, ctx: CommandContext) {
  const settings = ctx.chatSettings;
  if (settings === undefined) throw new ServiceMissingError('Chat settings');
  if (wallets === undefined) throw new UsageError('wallets is missing', null, 'Example: /track cluster 3 30m (0 turns it off)');
  if (wallets === 0) {
    await settings.updateSettings(ctx.chat, { cluster: null });
    return notice(
      'Wallets moving together: off',
      rich('This chat is no longer told when its followed wallets trade the same token together.'),
      'neutral',
    );
  }
  if (!Number.isInteger(wallets) || wallets < CLUSTER_WALLETS.min) {
    throw new UsageError(
      `wallets must be a whole number from ${CLUSTER_WALLETS.min} to ${CLUSTER_WALLETS.max}, or 0 for off`,
      null,
      'Example: /track cluster 3 30m',
    );
  }
  const windowSecs = window ?? DEFAULT_CLUSTER_WINDOW_SECS;
  await settings.updateSettings(ctx.chat, { cluster: { wallets, windowSecs } });
  return notice(
    'Wallets moving together: on',
    rich(
      `This chat is told when ${wallets} of its followed wallets buy the same token within ${changeWindow(windowSecs)}, and again when ${wallets} of them sell it, once per token. /track cluster 0 turns it off.`,
    ),
    'info',
  );
}

/** The token alert kinds a word of `events` means: a kind's own words, a group's (risk), or all. */
function kindsMeant(word: string): readonly string[] {
  const kinds = kindsOfFamily('token');
  if (word === 'all') return kinds.map((kind) => kind.name);
  return kinds.filter((kind) => kind.words.includes(word) || kind.groups.includes(word)).map((kind) => kind.name);
}

/** The words `events` takes, as the usage error and the help name them: each group, then each kind's last word. */
function eventWords(): string[] {
  const kinds = kindsOfFamily('token');
  const groups = [...new Set(kinds.flatMap((kind) => kind.groups))];
  const grouped = new Set(kinds.filter((kind) => kind.groups.length > 0 && kind.words.length > 1).map((kind) => kind.name));
  return [...groups, ...kinds.map((kind) => (grouped.has(kind.name) ? kind.words.at(-1) : kind.words[0]) ?? kind.name)];
}

/** The token alert kinds as a new follow's card says them: "risk status, risk flags, liquidity pulled…". */
function tokenAlerts(): string {
  return kindsOfFamily('token')
    .map((kind) => kind.describe(DEFAULT_OPTIONS))
    .join(', ');
}

function readEvents(text: string): string[] {
  const kinds = new Set<string>();
  for (const word of text
    .toLowerCase()
    .split(/[\s,+]+/)
    .filter(Boolean)) {
    const meant = kindsMeant(word);
    if (meant.length === 0) {
      throw new UsageError(
        `"${word.slice(0, 30)}" is not an alert kind`,
        null,
        `events takes any of ${eventWords().join(', ')} (comma-separated), or all.`,
      );
    }
    for (const kind of meant) kinds.add(kind);
  }
  // Every token kind named is the same as none named: "all", which also takes kinds added later.
  return kinds.size === kindsOfFamily('token').length ? [] : [...kinds];
}

export default defineCommand({
  name: 'track',
  description: 'Follow a token or a wallet in this chat and get alerts here',
  // Read when asked, not when loaded: a kind registered after the commands (registerAlertKind) is listed too.
  get help() {
    return [
      'Follows a token or a wallet in this chat; tracking it again changes its options.',
      `/track token <address> [events] [threshold] [direction]: alerts on ${tokenAlerts()}.`,
      `threshold is the price move in percent that alerts (default 10; 25 or 25%), direction which moves: up, down or both (default both). events narrows them: ${eventWords().join(', ')}, comma-separated.`,
      `/track wallet <address> [label] [minusd] [side]: alerts on the wallet's trades of at least minusd USD (default all), side buy, sell or both; label (up to ${MAX_LABEL_LENGTH} characters) names it in alerts.`,
      'After the address the options may come in any order: a number is the threshold or minusd, up, down or both the direction (tokens), buy, sell or both the side (wallets).',
      'A label is a word, or quoted: "500" or "dev wallet".',
      `/track cluster <wallets> [window]: tells this chat when that many of its followed wallets buy the same token within the window (default 30m), and when that many sell it, once per token; /track cluster 0 turns it off.`,
      'Example: /track token 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 risk,price 25 down',
      'Example: /track wallet 9rTkGv8SVaTgivWmYpzwKv5RaUBLmcAUa3ZyKNSL1NSU dev 500 sell',
    ].join('\n');
  },
  manager: true,
  slow: true,
  options: [
    {
      name: 'kind',
      type: 'choice',
      description: 'token, wallet, or cluster (wallets moving together)',
      required: true,
      choices: [
        { value: 'token', label: 'token' },
        { value: 'wallet', label: 'wallet' },
        { value: 'cluster', label: 'cluster' },
      ],
    },
    { name: 'address', type: 'address', description: 'The token’s or wallet’s address', required: true, forms: ['token', 'wallet'] },
    // The words are many and grow with the kinds, past a Discord option's 100 characters: the help lists them.
    {
      name: 'events',
      type: 'text',
      description: 'Alerts wanted, comma-separated (default all); /help track lists the words',
      required: false,
      maxLength: 100,
      forms: ['token'],
    },
    {
      name: 'threshold',
      type: 'number',
      description: 'Price move that alerts, in percent (default 10)',
      required: false,
      min: 1,
      max: 1000,
      percent: true,
      forms: ['token'],
    },
    {
      name: 'direction',
      type: 'choice',
      description: 'Which price moves: up, down or both (default both)',
      required: false,
      forms: ['token'],
      choices: [
        { value: 'both', label: 'both' },
        { value: 'up', label: 'up' },
        { value: 'down', label: 'down' },
      ],
    },
    {
      name: 'label',
      type: 'text',
      description: 'A name for the wallet, shown in its alerts',
      required: false,
      maxLength: MAX_LABEL_LENGTH,
      quoteNumbers: true,
      forms: ['wallet'],
    },
    {
      name: 'minusd',
      type: 'number',
      description: 'Smallest trade that alerts, in USD (default 0: all)',
      required: false,
      min: 0,
      max: 1_000_000_000,
      forms: ['wallet'],
    },
    {
      name: 'side',
      type: 'choice',
      description: 'Which trades: buy, sell or both (default both)',
      required: false,
      forms: ['wallet'],
      choices: [
        { value: 'both', label: 'both' },
        { value: 'buy', label: 'buy' },
        { value: 'sell', label: 'sell' },
      ],
    },
    {
      name: 'wallets',
      type: 'number',
      description: `How many followed wallets trading one token make an alert (${CLUSTER_WALLETS.min}-${CLUSTER_WALLETS.max}; 0: off)`,
      required: false,
      min: 0,
      max: CLUSTER_WALLETS.max,
      forms: ['cluster'],
    },
    {
      name: 'window',
      type: 'duration',
      description: 'Within how long (1m to 1d, default 30m)',
      required: false,
      minSecs: CLUSTER_WINDOW_SECS.min,
      maxSecs: CLUSTER_WINDOW_SECS.max,
      forms: ['cluster'],
    },
  ],
  async run(args, ctx) {
    const now = ctx.now();
    if (args.kind === 'cluster') return trackCluster(args.wallets, args.window, ctx);
    if (args.kind === 'token') {
      // The look-up comes first: an address the service does not know is refused, never followed.
      const card = await ctx.query.token(args.address);
      const { follow, created, resumed } = await followsOf(ctx).track({
        chat: ctx.chat,
        userId: ctx.userId,
        kind: 'token',
        address: args.address,
        options: {
          ...(args.events === undefined ? {} : { events: readEvents(args.events) }),
          ...(args.threshold === undefined ? {} : { thresholdPct: args.threshold }),
          ...(args.direction === undefined ? {} : { direction: args.direction as PriceDirection }),
        },
        now,
      });
      const fields = [trackingField(follow, created, now), ...card.fields];
      if (resumed) fields.unshift({ name: 'Alerts resumed', value: rich('This chat was paused; alerts flow here again.') });
      return { ...card, fields, actions: card.actions.filter((action) => action.command !== 'track') };
    }
    // The wallet is read first: an address the service refuses is never followed, and what the
    // read shows is the wallet's baseline, so a trade made after it is told.
    const baseline = await ctx.query.checkWallet(args.address);
    const { follow, created, resumed } = await followsOf(ctx).track({
      baseline,
      chat: ctx.chat,
      userId: ctx.userId,
      kind: 'wallet',
      address: args.address,
      ...(args.label === undefined ? {} : { label: args.label }),
      options: {
        ...(args.minusd === undefined ? {} : { minUsd: args.minusd }),
        ...(args.side === undefined ? {} : { side: args.side as TradeSide }),
      },
      now,
    });
    const card = walletTrackedCard(follow, created, now);
    return resumed
      ? { ...card, fields: [{ name: 'Alerts resumed', value: rich('This chat was paused; alerts flow here again.') }, ...card.fields] }
      : card;
  },
});
