/**
 * The cards of calls: a chat's calls, the leaderboard, one caller's record, and the answers of the
 * setting, the export and the removals. Names are the callers' display names as text (callerName).
 */
import { code, field, rich, type Card, type CardAttachment, type CardField } from './card';
import { lookAlikeOf } from './lookAlike';
import { callerName, callerTag, callMcap, distinctCallerNames, multipleText, nowMultiple, peakMultiple } from './callText';
import type { CallerRecord } from './callStats';
import { HIT_MULTIPLE, MIN_CALLS } from './callStats';
import type { Call } from '../store/calls';
import { tokenTitle } from './tokenFacts';
import { relativeTime, shortAddress } from '../text/format';
import { untrusted } from '../text/sanitize';

/** Lines in a list card: a field each, within Discord's 25 fields and Telegram's 4,096 characters. */
const MAX_LINES = 20;

/** A call's token as a line names it; a copy of a well-known token (lookAlike.ts) is marked as one wherever it is named. */
function tokenOf(call: Call): string {
  const named = call.name.trim() === '' && call.symbol.trim() === '' ? shortAddress(untrusted(call.address, 64, '?')) : tokenTitle(call);
  const real = lookAlikeOf({ address: call.address, symbol: call.symbol, name: call.name });
  return real === null ? named : `${named} ⚠️ not the real ${real.symbol}`;
}

/** "×3.1 peak · ×1.4 now · Alice · 3h ago at $41.2K". */
function callText(call: Call, now: Date): string {
  const at = callMcap(call);
  return (
    `${multipleText(peakMultiple(call))} peak · ${multipleText(nowMultiple(call))} now · ${callerName(call.userName)} ` +
    `· ${relativeTime(call.calledAt, now)}${at === null ? '' : ` at ${at}`}`
  );
}

function callFields(calls: readonly Call[], now: Date): CardField[] {
  return calls.slice(0, MAX_LINES).map((call) => field(tokenOf(call), callText(call, now)));
}

export function callsSettingCard(on: boolean, changed: boolean): Card {
  return {
    title: changed ? (on ? 'Calls turned on' : 'Calls turned off') : `Calls are ${on ? 'on' : 'off'} here`,
    description: on
      ? rich(
          'The first post of a token here (a pasted address or link, or ',
          code('/token'),
          ') is the poster’s call; its peak is read from the closes of its traded candles and milestones are told as replies. ',
          code('/calls off'),
          ' stops it; the records stay.',
        )
      : rich('A manager turns them on with ', code('/calls on'), ': the first post of a token then becomes the poster’s call.'),
    color: 'info',
    fields: [],
    actions: [],
  };
}

export function callsListCard(calls: readonly Call[], window: string, now: Date): Card {
  const more = calls.length - Math.min(calls.length, MAX_LINES);
  return {
    title: `Calls here · ${window}`,
    description:
      calls.length === 0
        ? rich('No calls in this window.')
        : rich(
            `${calls.length} call${calls.length === 1 ? '' : 's'}, newest first: the peak since each call (from traded candles’ closes) ` +
              `and the multiple now.${more > 0 ? ` ${more} more in /calls export.` : ''}`,
          ),
    color: 'info',
    fields: callFields(calls, now),
    actions: [],
  };
}

export function leaderboardCard(records: readonly CallerRecord[], window: string, now: Date): Card {
  const shown = records.slice(0, MAX_LINES);
  // Two callers may go by one name: each then shows the end of their id.
  const names = distinctCallerNames(shown);
  return {
    title: `Leaderboard · ${window}`,
    description: rich(
      records.length === 0
        ? `Nobody has ${MIN_CALLS} calls in this window yet.`
        : `Callers with ${MIN_CALLS} calls or more, by the median peak multiple of their calls; ` +
            `hit rate is the share that reached ×${HIT_MULTIPLE}. Tokens that died count.`,
    ),
    color: 'info',
    fields: shown.map((record, index) =>
      field(
        `${index + 1}. ${names.get(record.userId) ?? callerName(record.userName)}`,
        `median ${multipleText(record.medianMultiple)} · hits ${Math.round(record.hitRate * 100)}% · ${record.calls.length} ` +
          `calls · best ${tokenOf(record.best)} ${multipleText(peakMultiple(record.best))} (${relativeTime(record.best.calledAt, now)})`,
      ),
    ),
    actions: [],
  };
}

export function callerCard(record: CallerRecord | null, who: string, now: Date): Card {
  if (record === null) return { title: `${callerName(who)}: no calls here`, color: 'neutral', fields: [], actions: [] };
  return {
    title: `${callerName(record.userName)}’s calls`,
    description: rich(
      `median ${multipleText(record.medianMultiple)} · hits ${Math.round(record.hitRate * 100)}% · ${record.calls.length} ` +
        `call${record.calls.length === 1 ? '' : 's'} · best ${tokenOf(record.best)} ${multipleText(peakMultiple(record.best))}`,
    ),
    color: 'info',
    fields: callFields(record.calls, now),
    actions: [],
  };
}

/** Several callers go by the name asked: each listed with its tag and how to ask for that one. */
export function sameNameCard(asked: string, callers: ReadonlyArray<{ userId: string; userName: string; calls: number }>): Card {
  return {
    title: `${callerName(asked)}: ${callers.length} callers go by this name`,
    description: rich('Each is a different person. Ask for one by the id after /caller.'),
    color: 'neutral',
    fields: callers.map((caller) =>
      field(
        `${callerName(caller.userName)} (${callerTag(caller.userId)})`,
        `${caller.calls} call${caller.calls === 1 ? '' : 's'} · /caller ${caller.userId}`,
      ),
    ),
    actions: [],
  };
}

export function exportCard(calls: number, window: string, file: CardAttachment): Card {
  return {
    title: `Calls here · ${window} · CSV`,
    description: rich(`${calls} call${calls === 1 ? '' : 's'}, one row each, in the attached file.`),
    color: 'info',
    fields: [],
    image: file,
    actions: [],
  };
}

export function forgottenCard(removed: readonly Call[]): Card {
  return {
    title: removed.length === 0 ? 'No calls of yours here' : `${removed.length} call${removed.length === 1 ? '' : 's'} of yours removed`,
    description: rich(
      removed.length === 0
        ? 'This chat’s records hold no call of yours.'
        : `Removed from this chat’s records: ${removed.slice(0, 30).map(tokenOf).join(', ')}${removed.length > 30 ? '…' : ''}.`,
    ),
    color: 'neutral',
    fields: [],
    actions: [],
  };
}

export function clearedCard(removed: number): Card {
  return {
    title: removed === 0 ? 'No calls to clear' : `${removed} call${removed === 1 ? '' : 's'} cleared`,
    description: rich(
      removed === 0
        ? 'This chat’s records hold no calls.'
        : 'Every call of this chat was removed from its records; calls stay on or off as they were.',
    ),
    color: 'neutral',
    fields: [],
    actions: [],
  };
}
