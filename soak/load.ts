/**
 * The load the chats put on the bot: what 200 chats set up once (2,000 follows over the market's
 * tokens and 200 wallets, quiet hours, budgets, daily watchlists, calls, wallet clusters), and
 * what they do every simulated hour (mutes and unmutes, targets set and taken back, a follow
 * swapped, look-ups, a token posted in a chat with calls on, buttons of the newest card pressed).
 * Every choice comes from the hour's number, so two runs do the same things.
 */
import type { SoakChats } from './platform';

export interface LoadPlan {
  chats: number;
  followsPerChat: number;
  tokens: readonly string[];
  wallets: readonly string[];
}

export function chatIds(plan: LoadPlan): string[] {
  return Array.from({ length: plan.chats }, (_, index) => `c${index}`);
}

/** The chat's followed tokens: six of the market's, spread so every token has followers. */
function tokensOf(plan: LoadPlan, index: number): string[] {
  const count = Math.min(plan.tokens.length, Math.round(plan.followsPerChat * 0.6));
  return Array.from({ length: count }, (_, k) => plan.tokens[(index * 7 + k * 13) % plan.tokens.length] ?? '');
}

function walletsOf(plan: LoadPlan, index: number): string[] {
  const count = plan.followsPerChat - Math.min(plan.tokens.length, Math.round(plan.followsPerChat * 0.6));
  return Array.from({ length: count }, (_, k) => plan.wallets[(index * 11 + k * 53) % plan.wallets.length] ?? '');
}

/** Runs `work` over the items, `width` at a time. */
async function pooled<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

export async function setUp(plan: LoadPlan, chats: SoakChats): Promise<void> {
  await pooled(chatIds(plan), 20, async (chatId) => {
    const index = Number(chatId.slice(1));
    const lines: string[] = [];
    tokensOf(plan, index).forEach((token, k) => {
      const threshold = [5, 10, 20, 50][(index + k) % 4];
      lines.push(`/track token ${token} all ${threshold}`);
    });
    walletsOf(plan, index).forEach((wallet, k) => lines.push(`/track wallet ${wallet} w${k} ${[0, 50, 500][(index + k) % 3]}`));
    if (index % 4 === 0) lines.push(`/quiet 22:00-07:00 ${['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo'][(index % 16) >> 2]}`);
    if (index % 5 === 0) lines.push(`/settings budget ${[3, 10, 30][index % 3]}`);
    if (index % 3 === 0) lines.push(`/digest daily ${String(6 + (index % 6)).padStart(2, '0')}:30`);
    if (index % 10 === 0) lines.push('/calls on');
    if (index % 20 === 0) lines.push('/track cluster 3 30m');
    for (const line of lines) await chats.type(chatId, line);
  });
}

/** One simulated hour of what people do. */
export async function hourOfUse(plan: LoadPlan, chats: SoakChats, hour: number): Promise<void> {
  const ids = chatIds(plan);
  const pick = (salt: number) => ids[(hour * 37 + salt * 101) % ids.length] ?? 'c0';
  const pickToken = (salt: number) => plan.tokens[(hour * 17 + salt * 29) % plan.tokens.length] ?? '';
  const work: Array<Promise<void>> = [];
  for (let k = 0; k < 4; k++) {
    const chatId = pick(k);
    const index = Number(chatId.slice(1));
    const token = tokensOf(plan, index)[hour % 6] ?? '';
    // Muted for 6 hours; every third one taken back at once by /unmute the next hour.
    work.push(chats.type(chatId, `/mute ${token} 6h`));
    if (k === 0) work.push(chats.type(pick(k + 40), `/unmute ${tokensOf(plan, Number(pick(k + 40).slice(1)))[(hour + 23) % 6] ?? ''}`));
  }
  for (let k = 0; k < 3; k++) {
    const chatId = pick(k + 10);
    const direction = k % 2 === 0 ? 'above' : 'below';
    const value = k % 2 === 0 ? '250K' : '40K';
    work.push(chats.type(chatId, `/target ${pickToken(k)} mcap ${direction} ${value}`));
    // Targets not reached are taken back after two days, as people do.
    const old = pick(k + 10 + 48 * 37);
    work.push(
      chats.type(old, `/untarget ${plan.tokens[((hour - 48) * 17 + k * 29 + plan.tokens.length * 1000) % plan.tokens.length] ?? ''}`),
    );
  }
  // A follow let go and taken up again (with other options): the chats' follows stay as many.
  const swapper = pick(20);
  const swapped = tokensOf(plan, Number(swapper.slice(1)))[hour % 6] ?? '';
  work.push(chats.type(swapper, `/untrack ${swapped}`).then(() => chats.type(swapper, `/track token ${swapped} price,risk,whale 15`)));
  // Look-ups.
  work.push(chats.type(pick(21), '/status'));
  work.push(chats.type(pick(22), '/history 10'));
  work.push(chats.type(pick(23), '/following'));
  work.push(chats.type(pick(24), `/token ${pickToken(7)}`));
  work.push(chats.type(pick(25), `/holders ${pickToken(8)}`));
  work.push(chats.type(pick(26), '/mutes'));
  // A token posted in a chat with calls on (every tenth chat): the first post of a token is a call.
  work.push(chats.type(`c${((hour * 3) % Math.ceil(plan.chats / 10)) * 10}`, `/token ${pickToken(9)}`));
  if (hour % 24 === 0) work.push(chats.type('c0', '/leaderboard'));
  await Promise.all(work);
  // Buttons under the newest card of a few chats (alert cards and answers alike).
  for (let k = 0; k < 6; k++) {
    const chatId = pick(k + 30);
    const buttons = chats.buttonsOf(chatId).filter((button) => !/chart/i.test(button.label) || k === 0);
    const button = buttons[(hour + k) % Math.max(1, buttons.length)];
    if (button !== undefined) await chats.press(chatId, button.key);
  }
}
