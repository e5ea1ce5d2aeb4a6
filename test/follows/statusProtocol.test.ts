/**
 * What /status says of the streams' protocol, the REST polls (their pace, and a poll slowed for
 * the service) and subscriptions the service never confirmed, read from a real store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { plainText } from '../../src/cards/card';
import { statusCard } from '../../src/follows/followCards';
import { createStatusSource, type PollsView } from '../../src/follows/status';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { chat as chatOf, tempDb } from '../delivery/helpers';
import { quietStreams } from '../support/streamStatus';

const chat = chatOf('-100321');
let store: SqliteStore | null = null;
let cleanup: () => void = () => undefined;

afterEach(async () => {
  await store?.close();
  store = null;
  cleanup();
});

async function statusText(polls: PollsView | null, unconfirmed: number): Promise<string> {
  const db = tempDb();
  cleanup = db.cleanup;
  store = openSqliteStore(db.path);
  const quiet = quietStreams();
  const source = createStatusSource({
    store,
    streams: () => ({ ...quiet(), protocol: 'vendor', unconfirmed }),
    protocol: () => 'vendor (as the service greeted)',
    polls: () => polls,
    startedAt: Date.now(),
  });
  const card = statusCard(await source.report(chat), new Date());
  return card.fields.map((field) => `${field.name}: ${plainText(field.value)}`).join('\n');
}

const pace = (slowed: boolean): PollsView => ({
  active: true,
  polls: [
    { name: 'token-data', intervalMs: 15_000, pauseMs: slowed ? 60_000 : 15_000, slowed },
    { name: 'wallet-tracker', intervalMs: 15_000, pauseMs: 15_000, slowed: false },
  ],
});

describe('/status on the vendor’s protocol', () => {
  it('names the protocol and how it was chosen, and the polls’ pace', async () => {
    const text = await statusText(pace(false), 0);
    expect(text).toContain('Stream protocol: vendor (as the service greeted)');
    expect(text).toContain('REST polls: token-data every 15s\nwallet-tracker every 15s');
    expect(text).not.toContain('slowed');
    expect(text).not.toContain('Unconfirmed');
  });

  it('says a poll slowed down for the service, and the subscriptions never confirmed', async () => {
    const text = await statusText(pace(true), 3);
    expect(text).toContain('token-data every 60s (slowed: the service is overwhelmed or failing)');
    expect(text).toContain('Unconfirmed subscriptions: 3 the service never confirmed: their tokens are polled over REST instead');
  });

  it('shows no polls line where none run', async () => {
    expect(await statusText({ ...pace(false), active: false }, 0)).not.toContain('REST polls');
    expect(await statusText(null, 0)).not.toContain('REST polls');
  });
});
