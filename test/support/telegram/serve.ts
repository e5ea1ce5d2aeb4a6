/**
 * A local Bot API to try the Telegram bot by hand, with no Telegram account:
 *
 *   npx tsx test/support/telegram/serve.ts            # prints TELEGRAM_API_ROOT=http://127.0.0.1:PORT
 *   TELEGRAM_BOT_TOKEN=123:ABC TELEGRAM_API_ROOT=http://127.0.0.1:PORT TMDS_BASE_URL=simulator npm start
 *
 * Each line typed here is sent to the bot as a message from a user in a private chat (a line
 * starting with "group:" comes from a group instead); every message the bot sends is printed as
 * its text, buttons listed. `--port N` picks the port (default 8081). Stops on Ctrl-C.
 */
import { createInterface } from 'node:readline';
import { startBotApi } from './botApi';

const portArg = process.argv.indexOf('--port');
const wanted = portArg >= 0 ? Number(process.argv[portArg + 1]) : 8081;

const api = await startBotApi({ botUsername: 'TokenWatchLocalBot', ...(Number.isInteger(wanted) ? { port: wanted } : {}) });
process.stdout.write(`TELEGRAM_API_ROOT=${api.apiRoot}\n`);
const user = api.user(1001, 'Tester');
const chat = api.privateChat(user);
const group = api.group(-1001, 'Test group');
api.setMember(group.id, user.id, 'administrator');

let shown = 0;
setInterval(() => {
  for (const message of api.sent.slice(shown)) {
    const buttons = (message.replyMarkup?.inline_keyboard ?? [])
      .flat()
      .map((b) => `[${b.text}]`)
      .join(' ');
    process.stdout.write(
      `\n--- bot ${message.edited ? 'edited' : message.method} in ${message.chatId}${message.photo ? ` (photo ${message.photo.filename}, ${message.photo.bytes} bytes)` : ''}\n${message.text}\n${buttons}\n`,
    );
  }
  shown = api.sent.length;
}, 200).unref();

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const inGroup = line.startsWith('group:');
  api.sendText({ chat: inGroup ? group : chat, from: user, text: inGroup ? line.slice(6).trim() : line });
});
process.once('SIGINT', () => void api.close().then(() => process.exit(0)));
