/**
 * The daily watchlists (`/digest daily HH:MM [zone]`): one node-cron schedule per distinct time and
 * zone among the chats that set one (not one per chat), and at each the watchlist of each of those
 * chats is made (src/query/watchlist.ts) and written to the outbox, which sends it like any alert.
 *
 * Each chat's digest of a day has one event key (`daily-digest:CHAT:DAY`, the day in its zone),
 * so it is written once however often it is asked for. A schedule asks for its chats' digests,
 * and so does every start: a digest is due when its latest time (today's, or yesterday's before
 * today's has come) is past, came after the setting was made, and is not in the outbox yet. A
 * restart thus sends a digest the stopped bot missed, late, and never one it sent. Runs never
 * overlap: one asked for while one is going runs right after it.
 *
 * Wiring (src/app.ts):
 *
 *   const digests = createDailyDigests({ store, market, logger, now, onWritten: () => delivery.notify() });
 *   await digests.start();     // schedules, and the digests a stopped bot missed
 *   await digests.changed();   // after /digest changed a chat's setting
 *   await digests.stop();
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { DailyDigestEvent } from '../alerts/kinds/dailyDigest';
import { errorText, silentLogger, type Logger } from '../log';
import type { MarketClient } from '../market/client';
import { chatKey, type ChatRef } from '../model/chat';
import { watchlist } from '../query/watchlist';
import type { DigestSetting, Store } from '../store/store';
import { dayBefore, wallClock, zonedInstant } from '../text/zonedTime';

export interface DailyDigestDeps {
  store: Pick<Store, 'chats' | 'follows' | 'outbox'>;
  market: MarketClient;
  logger?: Logger;
  /** The clock that decides which day's digest is due; the system's by default. */
  now?: () => Date;
  /** Told after digests were written to the outbox (delivery.notify). */
  onWritten?: () => void;
}

export interface DailyDigests {
  /**
   * Schedules every distinct time and zone set, and starts writing the digests due now (those a
   * stopped bot missed) without waiting for them: `runDue()` resolves after them.
   */
  start(): Promise<void>;
  /** A chat's setting changed: the schedules follow the settings again. */
  changed(): Promise<void>;
  /** Writes the digests due now that are not written yet, of every chat or of one time and zone's; resolves with how many. */
  runDue(group?: { time: string; zone: string }): Promise<number>;
  /** The schedules running, as "HH:MM Zone": one per distinct time and zone. */
  schedules(): string[];
  stop(): Promise<void>;
}

/** Follows read for a watchlist: a chat has at most 100, targets included. */
const FOLLOWS_READ = 1_000;

/** The key of a chat's digest of a day: the chat (thread included) and the day in its zone. */
export function digestKey(chat: ChatRef, day: string): string {
  return `daily-digest:${chatKey(chat)}:${day}`;
}

/**
 * The day whose digest is the latest due at `now` (today's once its time has come, yesterday's
 * before), or null when that time came before the setting was made.
 */
export function dueDay(setting: Pick<DigestSetting, 'time' | 'zone' | 'since'>, now: number): string | null {
  const clock = wallClock(now, setting.zone);
  const [hour, minute] = setting.time.split(':').map(Number) as [number, number];
  const day = clock.minutes >= hour * 60 + minute ? clock.day : dayBefore(clock.day);
  return zonedInstant(day, setting.time, setting.zone) >= setting.since ? day : null;
}

function groupKey(group: { time: string; zone: string }): string {
  return `${group.time} ${group.zone}`;
}

/** The chats whose digest is due at `at`, of every time and zone or of one's, each with the day it is due for. */
async function dueDigests(
  store: DailyDigestDeps['store'],
  group: { time: string; zone: string } | undefined,
  at: Date,
): Promise<Array<{ chat: ChatRef; digest: DigestSetting; day: string }>> {
  const chats = (await store.chats.digests()).filter(
    ({ digest }) => group === undefined || (digest.time === group.time && digest.zone === group.zone),
  );
  return chats.flatMap(({ chat, digest }) => {
    const day = dueDay(digest, at.getTime());
    return day === null ? [] : [{ chat, digest, day }];
  });
}

/** A chat's digest of a day: its followed tokens (not its targets) and wallets, as the service has them at `at`. */
async function makeDigest(
  deps: Pick<DailyDigestDeps, 'store' | 'market'>,
  chat: ChatRef,
  setting: DigestSetting,
  day: string,
  at: Date,
): Promise<DailyDigestEvent> {
  const { follows } = await deps.store.follows.list(chat, { offset: 0, limit: FOLLOWS_READ });
  const tokens = follows
    .filter((follow) => follow.kind === 'token' && (follow.options.target === null || follow.options.target === undefined))
    .map((follow) => follow.address);
  const wallets = follows.filter((follow) => follow.kind === 'wallet').map((follow) => ({ address: follow.address, label: follow.label }));
  const list = await watchlist(deps.market, { tokens: [...new Set(tokens)], wallets }, at);
  return {
    kind: 'daily-digest',
    key: digestKey(chat, day),
    at: at.getTime(),
    // About no one token: the chat's whole watchlist.
    token: { address: '', symbol: '', name: '' },
    day,
    time: setting.time,
    zone: setting.zone,
    ...list,
  };
}

export function createDailyDigests(deps: DailyDigestDeps): DailyDigests {
  const logger = (deps.logger ?? silentLogger).child({ component: 'daily-digest' });
  const now = deps.now ?? (() => new Date());
  const tasks = new Map<string, ScheduledTask>();
  let queue: Promise<unknown> = Promise.resolve();
  let stopped = false;

  /** One after another, in the order asked: runs and schedule changes never overlap. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const runDueNow = async (group?: { time: string; zone: string }): Promise<number> => {
    const at = now();
    const due = await dueDigests(deps.store, group, at);
    if (due.length === 0) return 0;
    const written = await deps.store.outbox.known(due.map(({ chat, day }) => digestKey(chat, day)));
    let rows = 0;
    for (const { chat, digest, day } of due) {
      if (stopped) break;
      if (written.has(digestKey(chat, day))) continue;
      try {
        const event = await makeDigest(deps, chat, digest, day, at);
        rows += await deps.store.outbox.add([{ event, to: [{ chat, label: null }] }], at);
      } catch (error) {
        logger.warn(
          { chat: chatKey(chat), day, error: errorText(error) },
          'daily watchlist not made; it is tried again at the next start or change',
        );
      }
    }
    if (rows > 0) {
      logger.info({ rows, group: group === undefined ? 'all' : groupKey(group) }, 'daily watchlists written');
      deps.onWritten?.();
    }
    return rows;
  };

  const runDue = (group?: { time: string; zone: string }): Promise<number> => serial(() => runDueNow(group));

  /** One schedule per distinct time and zone set, no more. */
  const sync = async (): Promise<void> => {
    if (stopped) return;
    const wanted = new Map<string, { time: string; zone: string }>();
    for (const { digest } of await deps.store.chats.digests()) wanted.set(groupKey(digest), { time: digest.time, zone: digest.zone });
    for (const [key, task] of tasks) {
      if (wanted.has(key)) continue;
      await task.stop();
      await task.destroy();
      tasks.delete(key);
    }
    for (const [key, group] of wanted) {
      if (tasks.has(key)) continue;
      const [hour, minute] = group.time.split(':').map(Number) as [number, number];
      try {
        tasks.set(
          key,
          cron.schedule(`${minute} ${hour} * * *`, () => void runDue(group), { timezone: group.zone, name: `digest ${key}` }),
        );
      } catch (error) {
        // A zone this runtime does not know (checked when set, so only after a change of runtime).
        logger.warn({ group: key, error: errorText(error) }, 'daily watchlist not scheduled');
      }
    }
  };

  return {
    async start() {
      await serial(sync);
      void runDue().catch((error: unknown) => logger.warn({ error: errorText(error) }, 'daily watchlists due at start not made'));
    },
    async changed() {
      await serial(sync);
    },
    runDue,
    schedules: () => [...tasks.keys()].sort(),
    async stop() {
      stopped = true;
      for (const task of tasks.values()) {
        await task.stop();
        await task.destroy();
      }
      tasks.clear();
      await queue;
    },
  };
}
