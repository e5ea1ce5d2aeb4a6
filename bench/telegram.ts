/**
 * `npm run bench -- telegram`: alerts through the real grammY (with the bot's throttle and
 * auto-retry, api.ts) and the Telegram alert sender to a local Bot API that enforces Telegram's
 * limits (30 messages a second overall, 1 a second per chat, 20 a minute per group) and answers
 * 429 past them (test/support/telegram).
 *
 * 2,000 alerts for 200 chats, 40 of them groups, 10 alerts each, all handed to the sender at once
 * as a backlog would be. With 200 chats, the overall 30 a second is the binding limit, so the
 * rate those limits allow is 30 messages a second; `delivery_rate_vs_limit` is the rate achieved
 * (messages accepted, over the time from the first to the last) divided by it. Goal: at least
 * 0.95 with no 429 answered.
 */
import { performance } from 'node:perf_hooks';
import type { Card } from '../src/cards/card';
import { code, field, link, rich } from '../src/cards/card';
import type { ChatRef } from '../src/model/chat';
import { createTelegramBot } from '../src/chats/telegram/api';
import { TelegramAlertSender } from '../src/chats/telegram/sender';
import { silentLogger } from '../src/log';
import { startBotApi } from '../test/support/telegram/botApi';
import { TELEGRAM_LIMITS } from '../test/support/telegram/pace';
import type { Row } from './section';
import { recordResult } from './results';

const CHATS = 200;
const GROUPS = 40;
const ALERTS = 2_000;
const WALLET = '5TWY5giTQjmgJgwgaQkCjiv7CovhojanR44w4ftscE1V';
const TOKEN = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';

function alertCard(n: number): Card {
  return {
    title: `🟢 Whale #${n % 17} bought MOCHI`,
    color: 'info',
    fields: [
      field('Amount', rich('1.2M MOCHI for ', code('3.4 SOL'), ' ($612)'), true),
      field('Price', '0.0₅2834 SOL', true),
      field('Wallet', link('5TWY…cE1V', `https://solscan.io/account/${WALLET}`), true),
      field('Links', rich(link('Transaction', `https://solscan.io/tx/${n}`), ' · ', link('Token', `https://solscan.io/token/${TOKEN}`))),
    ],
    timestamp: new Date(1_700_000_000_000 + n * 1000),
    actions: [{ label: 'Token', command: 'token', args: [TOKEN] }],
  };
}

export async function benchTelegram(): Promise<Row[]> {
  const api = await startBotApi({ pace: TELEGRAM_LIMITS, botUsername: 'BenchBot' });
  // Sending needs no getMe: the bot is never started, only its API used.
  const bot = createTelegramBot({ token: '123456:BENCH', apiRoot: api.apiRoot });
  const sender = new TelegramAlertSender({ api: bot.api, logger: silentLogger });
  const chats: ChatRef[] = Array.from({ length: CHATS }, (_, i) => ({
    platform: 'telegram',
    chatId: String(i < GROUPS ? -1_000_000 - i : 1_000 + i),
    threadId: null,
    scopeId: null,
  }));

  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: ALERTS }, (_, n) => {
      const chat = chats[n % CHATS] as ChatRef;
      return sender.send(chat, alertCard(n), [{ label: 'Token', key: `k${n}` }]);
    }),
  );
  const wallMs = performance.now() - started;
  const accepted = api.sent.filter((m) => m.method === 'sendMessage');
  const first = accepted[0]?.at ?? 0;
  const last = accepted[accepted.length - 1]?.at ?? 0;
  // n messages over the span from the first to the last: n − 1 gaps.
  const rate = accepted.length > 1 && last > first ? ((accepted.length - 1) * 1000) / (last - first) : 0;
  const ratio = rate / TELEGRAM_LIMITS.overallPerSecond;
  const notSent = outcomes.filter((o) => o.status !== 'sent').length;
  recordResult('delivery_rate_vs_limit', ratio, 'ratio');
  recordResult('delivery_429_count', api.tooManyRequests.count, 'count');
  await api.close();
  return [
    {
      what: `Telegram: ${ALERTS} alerts to ${CHATS} chats (${GROUPS} groups) at Telegram's pace`,
      figure: `${rate.toFixed(2)} msg/s of ${TELEGRAM_LIMITS.overallPerSecond} allowed (ratio ${ratio.toFixed(3)}), ${api.tooManyRequests.count} × 429, ${notSent} not sent, ${(wallMs / 1000).toFixed(1)} s`,
    },
  ];
}
