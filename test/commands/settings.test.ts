/** /settings budget through the Dispatcher on a real SQLite file: set, shown, refused forms, off; detect as before. */
import { describe, expect, it } from 'vitest';
import { group, settingsChat } from './support/settingsChat';

const chat = settingsChat();
const say = (line: string, manager?: boolean): Promise<string> => chat.say(line, manager);

describe('/settings budget', () => {
  it('sets a budget, shows it, and removes it with off or 0', async () => {
    expect(await say('/settings')).toContain('(budget): none');
    expect(await say('/settings budget 30')).toContain('(budget): 30');
    expect((await chat.store.chats.settings(group)).budget).toBe(30);
    expect(await say('/settings')).toContain('(budget): 30');
    await say('/settings budget off');
    expect((await chat.store.chats.settings(group)).budget).toBeUndefined();
    await say('/settings budget 5');
    await say('/settings budget 0');
    expect((await chat.store.chats.settings(group)).budget).toBeUndefined();
    expect(await say('/settings detect on')).toContain('(detect): on');
  });

  it('refuses what is not a number of alerts, and members', async () => {
    expect(await say('/settings budget lots')).toMatch(/number of alerts or off/);
    expect(await say('/settings budget 5000')).toMatch(/at most 1000/);
    expect(await say('/settings detect maybe')).toMatch(/on or off/);
    await say('/settings budget 10', false);
    expect((await chat.store.chats.settings(group)).budget).toBeUndefined();
  });
});
