/**
 * LISTEN/NOTIFY between the processes of one bot (src/cluster/): one channel, `tokenwatch`, whose
 * payloads are small JSON notes (follows changed, alerts ready, a chat paused). Notifications are
 * a hurry-up only: every process still polls, so a note lost while a listener reconnects delays
 * work by a poll, never loses it.
 *
 * The listener holds one connection of its own (LISTEN needs a session), made again with backoff
 * when it drops. A listening connection only hears; one cut off by a network partition says
 * nothing at all, so every HEARTBEAT_MS it asks the server once, and an answer that does not come
 * within the session's limits (pgDatabase.ts SESSION_LIMITS) counts as a drop.
 *
 * The log hears it once each way, however long the server is away: a warning when the connection
 * is lost, one line when it listens again; the attempts between (every 5 s at most) are debug lines.
 */
import pg from 'pg';
import { errorText, type Logger } from '../../log';
import { SESSION_LIMITS, sessionSettings, type PgDatabase } from './pgDatabase';

export const NOTIFY_CHANNEL = 'tokenwatch';
/** PostgreSQL's payload limit is 8,000 bytes; ours are far below it. */
const MAX_PAYLOAD = 7_900;
const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 5_000;
const HEARTBEAT_MS = 10_000;

export class PgNotifier {
  constructor(private readonly db: PgDatabase) {}

  async notify(payload: string): Promise<void> {
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error('notification payload too long');
    await this.db.query({ name: 'tw_notify', text: 'SELECT pg_notify($1, $2)', values: [NOTIFY_CHANNEL, payload] });
  }
}

export interface PgListener {
  /** Resolves once listening (the first connection made). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on the channel at `url`, calling `onPayload` for each note; `onReconnect` after a
 * connection was made again (notes may have been missed).
 */
export function listen(url: string, logger: Logger, onPayload: (payload: string) => void, onReconnect: () => void): PgListener {
  let client: pg.Client | null = null;
  let closed = false;
  let delay = RETRY_FIRST_MS;
  let timer: NodeJS.Timeout | null = null;
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    signalReady = resolve;
  });
  let first = true;
  /** Since when the connection is lost (said once), or null while listening. */
  let lostSince: number | null = null;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({
      connectionString: url,
      application_name: 'tokenwatch-listen',
      connectionTimeoutMillis: 5_000,
      ...sessionSettings(SESSION_LIMITS),
      query_timeout: SESSION_LIMITS.queryTimeoutMs,
    });
    client = next;
    next.on('notification', (message) => {
      if (message.channel === NOTIFY_CHANNEL && message.payload !== undefined) onPayload(message.payload);
    });
    let heartbeat: NodeJS.Timeout | null = null;
    const again = (error?: unknown): void => {
      if (heartbeat !== null) clearInterval(heartbeat);
      if (client !== next || closed) return;
      client = null;
      if (error !== undefined && lostSince === null)
        logger.warn({ reason: errorText(error) }, 'notification listener lost its connection; connecting again (polls go on meanwhile)');
      else if (error !== undefined) logger.debug({ reason: errorText(error) }, 'notification listener still connecting');
      lostSince ??= Date.now();
      next.end().catch(() => undefined);
      timer = setTimeout(() => void connect(), delay);
      timer.unref();
      delay = Math.min(RETRY_MAX_MS, delay * 2);
    };
    next.on('error', again);
    next.on('end', () => again(new Error('connection ended')));
    try {
      await next.connect();
      await next.query(`LISTEN ${NOTIFY_CHANNEL}`);
      heartbeat = setInterval(() => {
        if (client === next) next.query('SELECT 1').catch(again);
      }, HEARTBEAT_MS);
      heartbeat.unref();
      delay = RETRY_FIRST_MS;
      if (lostSince !== null) logger.info({ downMs: Date.now() - lostSince }, 'notification listener listening again');
      lostSince = null;
      if (first) {
        first = false;
        signalReady();
      } else onReconnect();
    } catch (error) {
      again(error);
    }
  };
  void connect();
  return {
    ready,
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      signalReady();
      const open = client;
      client = null;
      if (open !== null) await open.end().catch(() => undefined);
    },
  };
}
