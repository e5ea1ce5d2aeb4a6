/**
 * The echo platform: a chat platform that exists only for the tests, registered from this folder
 * alone (`registerChatPlatform(echoPlatform)`), to prove that a platform is one entry and one
 * folder. Its "SDK" is the in-memory network of network.ts; what it does is what a real
 * platform's folder does: read its settings section, translate its events into the inbox's calls
 * (src/chats/inbox.ts), render each answer's Card, and send alerts through its AlertSender.
 *
 * Settings: ECHO_NETWORK names the network to join (unset: the platform is off), ECHO_QUEUE_MAX
 * the input one chat may have waiting (default 20, as every platform's queue).
 */
import { plainText, type Card } from '../../../src/cards/card';
import type { ChatPlatform, ChatDeps, PlatformEnv, RunningChat } from '../../../src/chats/platform';
import { senderLeaseOf } from '../../../src/chats/platform';
import { ChatInbox, SKIPPED_NOTICE } from '../../../src/chats/inbox';
import { ConfigError } from '../../../src/config';
import type { AlertSender } from '../../../src/delivery/sender';
import type { CommandCaller } from '../../../src/dispatch/dispatcher';
import type { ChatReply } from '../../../src/dispatch/reply';
import type { ChatRef, Platform } from '../../../src/model/chat';
import { EchoNetwork, type EchoMessage } from './network';

export const ECHO = 'echo';

export interface EchoSettings {
  network: string;
  queueMax: number;
}

/** The settings section: off without ECHO_NETWORK, a wrong ECHO_QUEUE_MAX named as every setting is. */
function readEchoSettings(env: PlatformEnv): EchoSettings | null {
  const network = env.ECHO_NETWORK?.trim() ?? '';
  if (network === '') return null;
  const queueText = env.ECHO_QUEUE_MAX?.trim() ?? '';
  const queueMax = queueText === '' ? 20 : Number(queueText);
  if (!/^\d+$/.test(queueText === '' ? '20' : queueText) || queueMax < 1 || queueMax > 100)
    throw new ConfigError('ECHO_QUEUE_MAX', 'must be a whole number from 1 to 100, written in plain digits');
  return { network, queueMax };
}

/** A Card as the echo network shows it: plain lines. */
export function renderEcho(card: Card): string {
  return [
    card.title,
    ...(card.description === undefined ? [] : [plainText(card.description)]),
    ...card.fields.map((field) => `${field.name}: ${plainText(field.value)}`),
  ].join('\n');
}

function chatOf(chatId: string): ChatRef {
  // The store knows a platform by its name once registered (src/chats/platforms.ts).
  return { platform: ECHO as Platform, chatId, threadId: null, scopeId: null };
}

function echoSender(network: EchoNetwork): AlertSender {
  return {
    platform: ECHO as Platform,
    async send(chat, card, buttons) {
      await network.post({ chatId: chat.chatId, kind: 'alert', text: renderEcho(card), buttons });
      return { status: 'sent' };
    },
  };
}

function networkOf(settings: EchoSettings): EchoNetwork {
  const network = EchoNetwork.find(settings.network);
  if (network === null) throw new Error(`Echo: no network named ${settings.network}; check ECHO_NETWORK`);
  return network;
}

/** The chat: every message and press through the inbox, every answer rendered and posted. */
async function startEcho(deps: ChatDeps, settings: EchoSettings): Promise<RunningChat> {
  const network = networkOf(settings);
  const post = (chatId: string, kind: EchoMessage['kind'], reply: ChatReply) =>
    network.post({ chatId, kind, text: renderEcho(reply.card), buttons: reply.buttons });
  const inbox = new ChatInbox({
    dispatcher: deps.dispatcher,
    queue: { maxWaiting: settings.queueMax, noticeEveryMs: 60_000 },
    tellSkipped: (chat) => network.post({ chatId: chat.chatId, kind: 'notice', text: SKIPPED_NOTICE, buttons: [] }),
    failed: (error, chat) => deps.logger.error({ err: error, chat: chat.chatId }, 'echo input failed'),
  });
  // Everyone manages the chats of the echo network, as a person does a private chat of their own.
  const callerOf = (chatId: string, userId: string): CommandCaller => ({ chat: chatOf(chatId), userId, isManager: async () => true });
  const disconnect = network.connect({
    typed(chatId, userId, text) {
      const caller = callerOf(chatId, userId);
      const answer = (reply: ChatReply | null) => (reply === null ? Promise.resolve() : post(chatId, 'answer', reply));
      if (text.startsWith('/')) inbox.line(caller, text, answer);
      else inbox.paste(caller, text, { private: true }, answer);
    },
    pressed(chatId, userId, key) {
      inbox.press(callerOf(chatId, userId), key, (reply) => post(chatId, 'answer', reply));
    },
  });
  deps.logger.info({ network: settings.network }, 'echo chat started');
  return {
    name: ECHO,
    sender: echoSender(network),
    ended: null,
    connected: () => network.connected(),
    async stop() {
      disconnect();
      await inbox.stop();
    },
  };
}

/** The alert sender alone (the sender role without the echo role): no listening to the network. */
async function echoSendOnly(_deps: ChatDeps, settings: EchoSettings): Promise<RunningChat> {
  return { name: ECHO, sender: echoSender(networkOf(settings)), ended: null, stop: async () => undefined };
}

export const echoPlatform: ChatPlatform<EchoSettings> = {
  name: ECHO,
  settings: { read: (_config, env) => readEchoSettings(env), token: 'ECHO_NETWORK' },
  start: startEcho,
  sendOnly: echoSendOnly,
  leaseLabels: [senderLeaseOf(ECHO)],
};
