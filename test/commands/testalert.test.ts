/**
 * /testalert through the Dispatcher: a sample of every registered kind goes to the asking chat
 * only, marked and without buttons; a chat that refuses a post is named in the answer; managers only.
 */
import { describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { alertKinds } from '../../src/alerts/registry';
import type { SendOutcome } from '../../src/delivery/sender';
import { Dispatcher } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import type { QueryService } from '../../src/query/service';
import type { ChatRef } from '../../src/model/chat';
import { silentLogger } from '../../src/log';
import { MemoryActionKeyStore } from '../support/memoryActionKeys';

const NOW = new Date('2025-01-15T12:00:00Z');
const group: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };

async function setUp(outcome: (card: Card) => SendOutcome) {
  const sent: Array<{ chat: ChatRef; card: Card }> = [];
  const dispatcher = new Dispatcher({
    commands: await loadCommands(),
    services: {
      // /testalert reads no market.
      query: undefined as unknown as QueryService,
      sendToChat: async (chat, card) => {
        sent.push({ chat, card });
        return outcome(card);
      },
    },
    actionKeys: new MemoryActionKeyStore(),
    logger: silentLogger,
    now: () => NOW,
  });
  const say = async (manager: boolean) => {
    const reply = await dispatcher.runLine('/testalert', {
      chat: group,
      userId: manager ? 'admin' : 'member',
      isManager: async () => manager,
    });
    if (reply === null) throw new Error('not a command');
    return reply;
  };
  return { sent, say };
}

describe('/testalert', () => {
  it('sends one marked sample of every kind to the asking chat, without buttons', async () => {
    const { sent, say } = await setUp(() => ({ status: 'sent' }));
    const reply = await say(true);
    expect(sent.length).toBe(alertKinds().length);
    for (const { chat, card } of sent) {
      expect(chat).toEqual(group);
      expect(card.title.startsWith('Sample: ')).toBe(true);
      expect(card.footer ?? '').toContain('Sample alert');
      expect(card.actions).toEqual([]);
    }
    expect(reply.card.title).toBe(`Sent ${alertKinds().length} sample alerts`);
    expect(reply.card.color).toBe('info');
  });

  it('names the samples the chat would not take', async () => {
    const { say } = await setUp((card) =>
      card.title.toLowerCase().includes('graduat') ? { status: 'gone', reason: 'Forbidden: <b>not enough rights</b>' } : { status: 'sent' },
    );
    const reply = await say(true);
    expect(reply.card.color).toBe('error');
    const fields = reply.card.fields.map((f) => plainText(f.value)).join('\n');
    expect(fields).toContain('graduation: Forbidden');
  });

  it('is for managers only', async () => {
    const { sent, say } = await setUp(() => ({ status: 'sent' }));
    const reply = await say(false);
    expect(sent).toEqual([]);
    expect(`${reply.card.title} ${plainText(reply.card.description ?? [])}`).toMatch(/manag/i);
  });
});
