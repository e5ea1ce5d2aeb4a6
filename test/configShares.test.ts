/** The fair-share settings: their defaults, their forms, and the stream share's percent of the sockets. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { MIN_STREAM_SHARE, streamShareOf } from '../src/follows/followLimits';

describe('the fair-share settings', () => {
  it('default to 100 follows a chat, 500 a server, 5 % of the stream sockets, 20 technicals a chat a minute, and button keys of 1,000 a person and 5,000 a chat', () => {
    expect(loadConfig({}).shares).toEqual({
      followsPerChat: 100,
      followsPerServer: 500,
      streamSharePerChat: { percent: 5 },
      technicalsPerChatPerMinute: 20,
      actionKeysPerPerson: 1_000,
      actionKeysPerChat: 5_000,
    });
  });

  it('take their variables', () => {
    const shares = loadConfig({
      MAX_FOLLOWS_PER_CHAT: '250',
      MAX_FOLLOWS_PER_SERVER: '2000',
      MAX_STREAM_SHARE_PER_CHAT: '400',
      TECHNICALS_PER_CHAT_PER_MINUTE: '10',
      ACTION_KEYS_PER_PERSON: '300',
      ACTION_KEYS_PER_CHAT: '3000',
    }).shares;
    expect(shares).toEqual({
      followsPerChat: 250,
      followsPerServer: 2000,
      streamSharePerChat: { targets: 400 },
      technicalsPerChatPerMinute: 10,
      actionKeysPerPerson: 300,
      actionKeysPerChat: 3000,
    });
    expect(loadConfig({ MAX_STREAM_SHARE_PER_CHAT: '12%' }).shares.streamSharePerChat).toEqual({ percent: 12 });
  });

  it('refuse what is out of form, naming the variable', () => {
    for (const [variable, value] of [
      ['MAX_FOLLOWS_PER_CHAT', '0'],
      ['MAX_FOLLOWS_PER_SERVER', 'many'],
      ['MAX_STREAM_SHARE_PER_CHAT', '0%'],
      ['MAX_STREAM_SHARE_PER_CHAT', '101%'],
      ['MAX_STREAM_SHARE_PER_CHAT', '5.5%'],
      ['TECHNICALS_PER_CHAT_PER_MINUTE', '-1'],
      ['ACTION_KEYS_PER_PERSON', '1'],
    ] as const) {
      expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [variable]: value })).toThrow(variable);
    }
  });

  it('make the stream share a percent of the sockets the open-files limit allows, never below 100 targets', () => {
    expect(streamShareOf(5, 1_048_000)).toBe(52_400);
    expect(streamShareOf(5, 384)).toBe(MIN_STREAM_SHARE);
    expect(streamShareOf(5, null)).toBe(MIN_STREAM_SHARE);
  });
});
