/**
 * The call commands on every store, typed through the Dispatcher as a chat would: the leaderboard's
 * order and hit rates with a dead token in it, the export parsed back as CSV with one row per call,
 * forget-me removing only that person's calls, and the manager's parts refused to others.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { Dispatcher } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { silentLogger } from '../../src/log';
import { MarketClient } from '../../src/market/client';
import type { ChatRef } from '../../src/model/chat';
import { CallBook } from '../../src/query/callBook';
import { QueryService } from '../../src/query/service';
import { CSV_HEADER } from '../../src/cards/callsCsv';
import { STORE_KINDS, type ContractStore, type StoreHome } from './support/stores';

const NOW = new Date(Date.UTC(2027, 2, 1, 12));
const HOUR = 3_600_000;
const group: ChatRef = { platform: 'discord', chatId: 'chan-1', threadId: null, scopeId: 'guild-1' };

/** RFC 4180 read back: quoted cells with doubled quotes, CRLF lines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) throw new Error('CSV does not end with a line break');
  return rows;
}

describe.each(STORE_KINDS)('call commands (%s)', (_kind, makeHome) => {
  let home: StoreHome;
  let store: ContractStore;
  let dispatcher: Dispatcher;
  let client: MarketClient;
  let asked = 0;

  beforeEach(async () => {
    asked = 0;
    home = await makeHome();
    store = await home.open();
    // No look-up is made: the commands read the store.
    client = new MarketClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused-key', logger: silentLogger, maxRetries: 0 });
    dispatcher = new Dispatcher({
      commands: await loadCommands(),
      services: { query: new QueryService(client, () => NOW), calls: new CallBook(store.calls, () => NOW) },
      actionKeys: store.actionKeys,
      logger: silentLogger,
      // A minute passes between two commands: the calls commands' cooldowns are a person's, and the
      // tests ask as one person; a minute leaves every "5h ago" as it reads.
      now: () => new Date(NOW.getTime() + asked++ * 60_000),
    });
  });
  afterEach(async () => {
    client.close();
    await store.close();
    await home.remove();
  });

  const say = async (line: string, userId = 'u-manager', manager = true): Promise<Card> => {
    const reply = await dispatcher.runLine(line, { chat: group, userId, isManager: async () => manager });
    if (reply === null) throw new Error(`not a command: ${line}`);
    return reply.card;
  };

  /** A call `hoursAgo` ago whose peak is `peak` times its entry and whose last price is `last` times it. */
  async function call(userId: string, userName: string, address: string, hoursAgo: number, peak: number, last = peak): Promise<void> {
    const calledAt = new Date(NOW.getTime() - hoursAgo * HOUR);
    const { call: made } = await store.calls.record({
      chat: group,
      address,
      symbol: address.slice(0, 4),
      name: `Token ${address}`,
      userId,
      userName,
      messageId: `m-${address}`,
      calledAt,
      priceSol: 0.002,
      priceUsd: 0.3,
      solUsd: 150,
      mcapSol: 200,
      mcapUsd: 30_000,
    });
    await store.calls.recordPeaks(
      [
        {
          id: made.id,
          peakSol: 0.002 * peak,
          peakAt: calledAt,
          lastSol: 0.002 * last,
          lastAt: calledAt,
          checkedTo: 0,
          nextCheckAt: null,
          toldMultiple: 0,
        },
      ],
      [],
      NOW,
    );
  }

  it('ranks callers by the median peak multiple, with a dead token counted, hit rates and best calls', async () => {
    await call('alice', 'Alice', 'TokAlice1', 5, 3);
    await call('alice', 'Alice', 'TokAliceDead', 10, 1, 0.0001);
    await call('alice', 'Alice', 'TokAlice3', 20, 2.5);
    await call('bob', '@everyone', 'TokBob1', 6, 10);
    await call('bob', '@everyone', 'TokBobDead', 7, 1.05, 0.00001);
    await call('bob', '@everyone', 'TokBob3', 8, 1.2);
    // Two calls only: not ranked, however high.
    await call('carol', 'Carol', 'TokCarol1', 3, 50);
    await call('carol', 'Carol', 'TokCarol2', 4, 50);
    // Outside 7 days: only in 30d and all.
    await call('dave', 'Dave', 'TokDave1', 24 * 10, 4);
    await call('dave', 'Dave', 'TokDave2', 24 * 10, 4);
    await call('dave', 'Dave', 'TokDave3', 24 * 10, 4);

    const week = await say('/leaderboard');
    expect(week.fields.map((f) => f.name)).toEqual(['1. Alice', '2. everyone']);
    expect(plainText(week.fields[0]?.value ?? [])).toBe('median ×2.5 · hits 67% · 3 calls · best Token TokAlice1 (TokA) ×3.0 (5h ago)');
    expect(plainText(week.fields[1]?.value ?? [])).toBe('median ×1.2 · hits 33% · 3 calls · best Token TokBob1 (TokB) ×10 (6h ago)');
    const month = await say('/leaderboard 30d');
    expect(month.fields.map((f) => f.name)).toEqual(['1. Dave', '2. Alice', '3. everyone']);

    const list = await say('/calls 24h');
    expect(list.fields.map((f) => f.name)).toEqual([
      'Token TokCarol1 (TokC)',
      'Token TokCarol2 (TokC)',
      'Token TokAlice1 (TokA)',
      'Token TokBob1 (TokB)',
      'Token TokBobDead (TokB)',
      'Token TokBob3 (TokB)',
      'Token TokAliceDead (TokA)',
      'Token TokAlice3 (TokA)',
    ]);
    expect(plainText(list.fields[6]?.value ?? [])).toBe('×1.0 peak · ×0.00 now · Alice · 10h ago at $30K');

    const caller = await say('/caller @Alice', 'u-other', false);
    expect(caller.title).toBe('Alice’s calls');
    expect(caller.fields).toHaveLength(3);
  });

  it('never merges two callers who go by one name: /caller lists them, the leaderboard tells them apart', async () => {
    for (const [index, token] of ['TokA1', 'TokA2', 'TokA3'].entries()) await call('1001', 'Alice', token, index + 1, 3);
    for (const [index, token] of ['TokB1', 'TokB2', 'TokB3'].entries()) await call('2002', 'alice', token, index + 1, 2);
    const board = await say('/leaderboard');
    expect(board.fields.map((f) => f.name)).toEqual(['1. Alice (#1001)', '2. alice (#2002)']);
    const asked = await say('/caller Alice', 'u-other', false);
    expect(asked.title).toBe('Alice: 2 callers go by this name');
    expect(asked.fields.map((f) => plainText(f.value)).sort()).toEqual(['3 calls · /caller 1001', '3 calls · /caller 2002']);
    const one = await say('/caller 2002', 'u-other', false);
    expect(one.title).toBe('alice’s calls');
    expect(one.fields).toHaveLength(3);
  });

  it('exports the chat’s calls as CSV, one row per call, formulas made inert', async () => {
    await call('alice', '=HYPERLINK("http://x.invalid","hi")', 'TokA', 1, 2);
    await call('bob', 'Bob, "the" caller', 'TokB', 2, 1);
    await call('bob', 'Bob', 'TokOld', 24 * 40, 3);
    const card = await say('/calls export 30d', 'u-any', false);
    expect(card.image?.contentType).toBe('text/csv');
    const rows = parseCsv(new TextDecoder().decode(card.image?.data));
    expect(rows[0]).toEqual([...CSV_HEADER]);
    expect(rows.slice(1).map((row) => row[1])).toEqual(['TokA', 'TokB']);
    expect(rows.slice(1).map((row) => row[5])).toEqual(['\'=HYPERLINK("http://x.invalid","hi")', 'Bob, "the" caller']);
    expect(rows.slice(1).map((row) => Number(row[12]))).toEqual([2, 1]);
    expect(parseCsv(new TextDecoder().decode((await say('/calls export all')).image?.data))).toHaveLength(4);
  });

  it('forgets only the asking person’s calls; on, off and clear are a manager’s', async () => {
    await call('alice', 'Alice', 'TokA', 1, 2);
    await call('bob', 'Bob', 'TokB', 2, 1);
    await call('alice', 'Alice', 'TokC', 3, 1);
    const forgotten = await say('/calls forget me', 'alice', false);
    expect(forgotten.title).toBe('2 calls of yours removed');
    expect(plainText(forgotten.description ?? [])).toContain('Token TokA (TokA), Token TokC (TokC)');
    expect((await store.calls.list(group, null)).map((c) => c.userId)).toEqual(['bob']);

    expect((await say('/calls on', 'bob', false)).title).not.toBe('Calls turned on');
    expect(await store.calls.enabled(group)).toBe(false);
    expect((await say('/calls on')).title).toBe('Calls turned on');
    expect(await store.calls.enabled(group)).toBe(true);
    expect((await say('/calls clear', 'bob', false)).title).not.toContain('cleared');
    expect((await say('/calls clear')).title).toBe('1 call cleared');
    expect(await store.calls.list(group, null)).toEqual([]);
  });
});
