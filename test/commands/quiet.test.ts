/** /quiet through the Dispatcher on a real SQLite file: set across midnight, shown, strict, refused forms, off. */
import { describe, expect, it } from 'vitest';
import { group, settingsChat } from './support/settingsChat';

const chat = settingsChat();
const say = (line: string, manager?: boolean): Promise<string> => chat.say(line, manager);

describe('/quiet', () => {
  it('sets hours across midnight in a zone, shows them, takes strict, and turns off', async () => {
    expect(await say('/quiet')).toContain('Quiet hours: off');
    expect(await say('/quiet 23:00-07:00 America/New_York')).toContain('23:00 to 07:00 (America/New_York)');
    expect((await chat.store.chats.settings(group)).quiet).toEqual({ from: '23:00', to: '07:00', zone: 'America/New_York', strict: false });
    expect(await say('/quiet')).toContain('A change to DANGER: sent at once');
    await say('/quiet 22:30-06:00 strict');
    expect((await chat.store.chats.settings(group)).quiet).toEqual({ from: '22:30', to: '06:00', zone: 'UTC', strict: true });
    await say('/quiet 22:30-06:00 Europe/Paris strict');
    expect((await chat.store.chats.settings(group)).quiet?.zone).toBe('Europe/Paris');
    expect(await say('/quiet off')).toContain('Quiet hours off');
    expect((await chat.store.chats.settings(group)).quiet).toBeUndefined();
  });

  it('refuses bad hours and zones, and members', async () => {
    expect(await say('/quiet 25:00-07:00')).toMatch(/two times of day/);
    expect(await say('/quiet 07:00-07:00')).toMatch(/different times/);
    expect(await say('/quiet 23:00-07:00 Mars/Olympus')).toMatch(/not a time zone/);
    await say('/quiet 23:00-07:00', false);
    expect((await chat.store.chats.settings(group)).quiet).toBeUndefined();
  });
});
