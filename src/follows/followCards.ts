/**
 * The cards of the follow commands: what a chat follows and with which options, a follow added or
 * changed, removed, muted, and the bot's status. Addresses and labels are shown as they were
 * stored; labels come from chat members, so they go in as plain text for the renderers to escape.
 */
import { kindsOfFamily } from '../alerts/registry';
import { targetText } from '../alerts/kinds/target';
import type { PollsView, ProcessView, ShardState, StatusReport } from './status';
import type { NoRoom } from '../store/storeRoom';
import type { PackingStatus } from '../market/stream/index';
import { MUTED_FOREVER, type Follow, type FollowOptions } from '../model/follow';
import { code, field, rich, text, type Card, type CardField, type RichText } from '../cards/card';
import { duration, relativeTime, shortAddress } from '../text/format';
import { NO_SYMBOLS, tokenLabel, type TokenSymbols } from './tokenSymbols';

/**
 * The options in words, as each wanted kind describes itself: "risk status, risk flags, price moves
 * of 10% or more" or "buys and sells of at least $500".
 */
export function followOptionsText(kind: Follow['kind'], options: FollowOptions): string {
  const all = options.events.length === 0;
  const parts = kindsOfFamily(kind)
    .filter((descriptor) => all || options.events.includes(descriptor.name))
    .map((descriptor) => descriptor.describe(options));
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}

export function mutedText(follow: Follow, now: Date): string | null {
  if (follow.mutedUntil === null || follow.mutedUntil.getTime() <= now.getTime()) return null;
  if (follow.mutedUntil.getTime() >= MUTED_FOREVER.getTime()) return 'muted until /unmute';
  return `muted, ${relativeTime(follow.mutedUntil, now).replace(/^in /, 'for ')}`;
}

/** The line a token card gains when /track answers with it. */
export function trackingField(follow: Follow, created: boolean, now: Date): CardField {
  const muted = mutedText(follow, now);
  return field(
    created ? 'Now tracking in this chat' : 'Tracking updated',
    `${followOptionsText(follow.kind, follow.options)}${muted === null ? '' : ` (${muted})`}`,
  );
}

/** /track wallet's answer. */
export function walletTrackedCard(follow: Follow, created: boolean, now: Date): Card {
  const name = follow.label ?? shortAddress(follow.address);
  return {
    title: `${created ? 'Tracking' : 'Updated'} wallet ${name}`,
    description: rich('Alerts in this chat for its ', followOptionsText('wallet', follow.options), '.'),
    color: 'info',
    fields: [field('Wallet', code(follow.address)), ...(follow.label === null ? [] : [field('Label', follow.label, true)])],
    footer: mutedText(follow, now) ?? 'Change it with /track again, stop it with /untrack.',
    actions: [{ label: 'Trades', command: 'wallet', args: [follow.address] }],
  };
}

export function notice(title: string, description: RichText, color: Card['color'] = 'info'): Card {
  return { title, description, color, fields: [], actions: [] };
}

export const FOLLOWING_PAGE_SIZE = 10;

/**
 * /following: one page of the chat's follows, oldest first, with a Next button when more follow.
 * Tokens are named by their symbol beside the short address (`symbols`, as last seen); the whole
 * address stays in the value, to copy into /untrack.
 */
export function followingCard(follows: Follow[], total: number, page: number, now: Date, symbols: TokenSymbols = NO_SYMBOLS): Card {
  const pages = Math.max(1, Math.ceil(total / FOLLOWING_PAGE_SIZE));
  if (total === 0) {
    return notice(
      'Nothing followed here yet',
      rich('Follow a token with ', code('/track token ADDRESS'), ' or a wallet with ', code('/track wallet ADDRESS label'), '.'),
      'neutral',
    );
  }
  const fields = follows.map((follow) => {
    const muted = mutedText(follow, now);
    const target = follow.options.target;
    // A target is a follow of its token that wants its crossing alone: said as the target it is.
    if (target !== null && target !== undefined)
      return field(`target: ${tokenLabel(follow.address, symbols)}`, rich(code(follow.address), text(` · ${targetText(target)}`)));
    const name =
      follow.kind === 'token'
        ? `token: ${tokenLabel(follow.address, symbols)}`
        : follow.label !== null
          ? `wallet “${follow.label}”`
          : follow.kind;
    return field(
      name,
      rich(code(follow.address), text(` · ${followOptionsText(follow.kind, follow.options)}${muted === null ? '' : ` · ${muted}`}`)),
    );
  });
  return {
    title: `Followed in this chat: ${total}`,
    color: 'info',
    fields,
    footer: `page ${page} of ${pages}`,
    actions: page < pages ? [{ label: 'Next page', command: 'following', args: [String(page + 1)] }] : [],
  };
}

function ago(date: Date | null, now: Date): string {
  if (date === null) return '—';
  return duration(Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000)));
}

const count = (value: number): string => value.toLocaleString('en-US');

/** How subscriptions share sockets: what was set, and in `auto` what the service showed. */
function packingText(packing: PackingStatus): string {
  const most = packing.perSocket === 1 ? 'one subscription a socket' : `up to ${count(packing.perSocket)} subscriptions a socket`;
  switch (packing.state) {
    case 'fixed':
      return `${most} (set)`;
    case 'checking':
      return `auto: ${most}, until the service shows whether it takes them`;
    case 'accepted':
      return `auto: ${most}, which the service takes`;
    case 'refused':
      // The service's own words, cleaned where they were read; cut to keep the field short.
      return `auto: ${most}, as the service takes no second one (${(packing.evidence ?? '').slice(0, 200)})`;
  }
}

function shardText(shard: ShardState): string {
  const servers = `${count(shard.guilds)} server${shard.guilds === 1 ? '' : 's'}`;
  return `#${shard.id} ${shard.state}, ${servers}${shard.closedFor === null ? '' : ` (${shard.closedFor})`}`;
}

function processText(view: ProcessView): string {
  const parts = [view.roles.join(', ')];
  if (view.partitions > 0) parts.push(`${count(view.partitions)} partitions`);
  if (view.streams !== null) parts.push(`${count(view.streams.subscriptions)} subscriptions`);
  if (view.shards.length > 0) parts.push(`shards ${view.shards.join(', ')}`);
  if (view.leases.length > 0) parts.push(view.leases.join(', '));
  return `${view.owner}: ${parts.join('; ')} (renewed ${(view.renewedAgoMs / 1000).toFixed(1)} s ago)`;
}

/** The streams of the whole bot: this process's, or every watcher's when several processes run it. */
function streamsText(report: StatusReport): string {
  const watchers = report.processes?.filter((view) => view.streams !== null) ?? null;
  if (watchers === null) {
    const { streams } = report;
    return `${count(streams.open)} of ${count(streams.sockets)} sockets up, ${count(streams.subscriptions)} subscriptions`;
  }
  const sum = (pick: (streams: NonNullable<ProcessView['streams']>) => number): number =>
    watchers.reduce((total, view) => total + (view.streams === null ? 0 : pick(view.streams)), 0);
  return (
    `${count(sum((s) => s.open))} of ${count(sum((s) => s.sockets))} sockets up, ${count(sum((s) => s.subscriptions))} ` +
    `subscriptions, over ${watchers.length} watcher${watchers.length === 1 ? '' : 's'}`
  );
}

/** Tokens named in this chat's line of /status; the rest are counted. */
const STATUS_TOKENS = 10;

const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

/** "BONK · DezX…B263, WIF · EKpQ…zcjm; 1 wallet; 2 targets": the chat's tokens by name, its wallets and targets counted as such. */
function chatFollowsText(chat: NonNullable<StatusReport['chat']>): string {
  if (chat.tokens.length === 0 && chat.wallets === 0 && chat.targets === 0) return 'nothing yet';
  const named = chat.tokens.slice(0, STATUS_TOKENS).map((address) => tokenLabel(address, chat.symbols));
  const more = chat.tokens.length - named.length;
  const parts = [
    ...(named.length === 0 ? [] : [`${named.join(', ')}${more > 0 ? ` and ${plural(more, 'more token')}` : ''}`]),
    ...(chat.wallets === 0 ? [] : [plural(chat.wallets, 'wallet')]),
    ...(chat.targets === 0 ? [] : [plural(chat.targets, 'target')]),
  ];
  return parts.join('; ');
}

/** /status: streams, follows and delivery, as a person checking the bot wants them. */
/** The polls' pace, and which slowed down for the service; null when none run. */
function pollsText(polls: PollsView | null): string | null {
  if (polls === null || !polls.active) return null;
  return polls.polls
    .map(
      (poll) =>
        `${poll.name} every ${Math.round(poll.pauseMs / 1000)}s${poll.slowed ? ' (slowed: the service is overwhelmed or failing)' : ''}`,
    )
    .join('\n');
}

/** The store's line while it refuses writes for lack of room: since when, and what it means for alerts and look-ups. */
function storeFullText(full: NoRoom, now: Date): string {
  const code = full.code === '' ? '' : ` (${full.code})`;
  return (
    `The bot's database has had no room to write for ${ago(full.since, now)}${code}: alerts found meanwhile are told ` +
    `once it has room again, and look-ups still answer. The operator can free disk space.`
  );
}

export function statusCard(report: StatusReport, now: Date): Card {
  const { streams, follows, outbox } = report;
  const fields = [
    field('Live streams', streamsText(report), true),
    field('Stream sockets', packingText(streams.packing), true),
    field('Follows', `${follows.follows} in ${follows.chats} chats: ${follows.tokens} tokens, ${follows.wallets} wallets`, true),
    ...(report.chat === undefined ? [] : [field('This chat follows', chatFollowsText(report.chat))]),
    field('Alerts waiting', outbox.pending === 0 ? 'none' : `${outbox.pending}, oldest ${ago(outbox.oldest, now)} old`, true),
    field('Up for', ago(new Date(report.startedAt), now), true),
  ];
  if (report.storeFull !== undefined && report.storeFull !== null) fields.push(field('Store full', storeFullText(report.storeFull, now)));
  if (streams.protocol !== null) fields.push(field('Stream protocol', streams.protocol, true));
  const polls = pollsText(report.polls);
  if (polls !== null) fields.push(field('REST polls', polls, true));
  if (streams.unconfirmed > 0)
    fields.push(
      field(
        'Unconfirmed subscriptions',
        `${count(streams.unconfirmed)} the service never confirmed: their tokens are polled over REST instead (risk, pools, price).`,
      ),
    );
  if (streams.atLimit !== null) {
    const { maxSockets, openFiles, waiting } = streams.atLimit;
    const allowed = openFiles === null ? 'the limit allows' : `${count(openFiles)} open files allow`;
    const held = waiting === 0 ? '' : `${count(waiting)} subscriptions wait for one and are not watched, and `;
    fields.push(
      field(
        'At the open-files limit',
        `${count(maxSockets)} stream sockets, all that ${allowed}, are in use: ${held}new follows that need one are refused. ` +
          `The operator can raise the limit (ulimit -n, LimitNOFILE=).`,
      ),
    );
  }
  if (report.shards !== null) fields.push(field('Discord shards', report.shards.map(shardText).join('\n')));
  if (report.processes !== null)
    fields.push(field(`Processes (${report.processes.length})`, report.processes.map(processText).join('\n') || 'none live'));
  if (report.paused !== null)
    fields.push(field('This chat is paused', `alerts could not be sent here (${report.paused}); /track or /unmute resumes it`));
  // Neutral: the colours a token card takes name risk statuses, and the bot's health is none; the fields say it.
  return { title: 'TokenWatch status', color: 'neutral', fields, timestamp: now, actions: [] };
}
