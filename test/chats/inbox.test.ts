/**
 * The inbox every chat's input goes through, with a stand-in Dispatcher: input runs in its chat's
 * turn and is answered; a full lane skips what comes next and tells the chat once; a paste is
 * /token of its address, held to the paste limits, told how long to wait in a private chat only,
 * and left unanswered in a group when it is no token.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Card } from '../../src/cards/card';
import { ChatInbox, SKIPPED_NOTICE } from '../../src/chats/inbox';
import type { CommandCaller, CommandInput, Dispatcher } from '../../src/dispatch/dispatcher';
import type { ChatReply } from '../../src/dispatch/reply';
import type { ChatRef } from '../../src/model/chat';

const ADDRESS = 'So11111111111111111111111111111111111111112';
const CHAT: ChatRef = { platform: 'telegram', chatId: '-100', threadId: null, scopeId: null };
const caller = (userId = 'ann'): CommandCaller => ({ chat: CHAT, userId, isManager: async () => true });

function reply(title: string, failed = false): ChatReply {
  const card: Card = { title, fields: [], actions: [], ...(failed ? { color: 'error' as const } : {}) } as unknown as Card;
  return { card, buttons: [], ephemeral: failed, errorId: failed ? 'e1' : null };
}

/** Runs every command by answering with its name and text; `gate` holds each run until it resolves. */
function dispatcher(options: { gate?: Promise<void>; failing?: boolean } = {}) {
  const runs: string[] = [];
  const stub = {
    commands: [{ name: 'token' }, { name: 'help' }],
    async run(name: string, input: CommandInput): Promise<ChatReply> {
      runs.push(`${name} ${input.kind === 'text' ? input.text : ''}`.trim());
      if (options.gate !== undefined) await options.gate;
      return reply(name, options.failing === true);
    },
  };
  return { runs, dispatcher: stub as unknown as Dispatcher };
}

describe('ChatInbox', () => {
  it('answers a command in its chat’s turn', async () => {
    const { dispatcher: d } = dispatcher();
    const inbox = new ChatInbox({ dispatcher: d });
    const answers: string[] = [];
    const taken = inbox.command(caller(), 'help', { kind: 'text', text: '' }, async (r) => void answers.push(r.card.title));
    expect(taken.taken).toBe(true);
    if (taken.taken) expect((await taken.done).card.title).toBe('help');
    expect(answers).toEqual(['help']);
    await inbox.stop();
  });

  it('skips what a full lane cannot hold, and tells the chat once', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { dispatcher: d, runs } = dispatcher({ gate });
    const told: ChatRef[] = [];
    const inbox = new ChatInbox({
      dispatcher: d,
      queue: { maxWaiting: 1, noticeEveryMs: 60_000 },
      tellSkipped: async (chat) => void told.push(chat),
    });
    const offers = Array.from({ length: 4 }, () => inbox.command(caller(), 'help', { kind: 'text', text: '' }));
    expect(offers.map((offer) => offer.taken)).toEqual([true, true, false, false]);
    expect(told).toEqual([CHAT]);
    expect(inbox.queue.counts().dropped).toBe(2);
    open();
    await vi.waitFor(() => expect(runs).toHaveLength(2));
    await inbox.stop();
    expect(SKIPPED_NOTICE).toMatch(/skipped/);
  });

  it('reads a paste as /token, and holds a second one to the paste limits: told in a private chat only', async () => {
    const { dispatcher: d, runs } = dispatcher();
    const inbox = new ChatInbox({ dispatcher: d, now: () => 1_000_000 });
    const answers: string[] = [];
    const answer = async (r: ChatReply) => void answers.push(r.card.title);
    expect(inbox.paste(caller(), 'nothing to see', { private: true }, answer)).toEqual({ kind: 'none' });
    const first = inbox.paste(caller(), `https://dexscreener.com/solana/${ADDRESS}`, { private: true }, answer);
    expect(first).toMatchObject({ kind: 'offered', taken: true, address: { address: ADDRESS } });
    expect(inbox.paste(caller(), ADDRESS, { private: false }, answer)).toMatchObject({ kind: 'held' });
    expect(inbox.paste(caller(), ADDRESS, { private: true }, answer)).toMatchObject({ kind: 'held' });
    await inbox.settled();
    expect(runs).toEqual([`token ${ADDRESS}`]);
    // The card, then the private chat's cooldown notice; the group's held paste said nothing.
    expect(answers).toEqual(['token', 'Slow down']);
    await inbox.stop();
  });

  it('leaves a paste that is no token unanswered in a group, and answers it in a private chat', async () => {
    const { dispatcher: d } = dispatcher({ failing: true });
    const answers: string[] = [];
    for (const where of [{ private: false }, { private: true }]) {
      const inbox = new ChatInbox({ dispatcher: d });
      inbox.paste(caller(), ADDRESS, where, async (r) => void answers.push(`${where.private ? 'private' : 'group'} ${r.card.title}`));
      await inbox.settled();
      await inbox.stop();
    }
    expect(answers).toEqual(['private token']);
  });

  it('says first on its card that an address came only from a link hidden behind the text', async () => {
    const { dispatcher: d } = dispatcher();
    const inbox = new ChatInbox({ dispatcher: d, now: () => 1_000_000 });
    const fields: string[][] = [];
    const answer = async (r: ChatReply) => void fields.push(r.card.fields.map((f) => f.name));
    inbox.paste(caller(), 'look at this', { private: true, links: [`https://dexscreener.com/solana/${ADDRESS}`] }, answer);
    await inbox.settled();
    expect(fields[0]?.[0]).toBe('From a hidden link');
    await inbox.stop();
  });
});
