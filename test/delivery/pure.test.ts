/** The pure parts of delivery: backoff, the card cache, render-once and digests. */
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card';
import { retryDelayMs } from '../../src/delivery/backoff';
import { AlertCardCache } from '../../src/delivery/cardCache';
import { DIGEST_MAX_ITEMS, digestCard } from '../../src/delivery/digest';
import { renderOnce } from '../../src/delivery/renderOnce';
import type { AlertEvent } from '../../src/model/events';

const policy = { baseMs: 1_000, maxMs: 60_000 };

function riskEvent(key: string): AlertEvent {
  return { kind: 'risk-status', key, at: 0, token: { address: 'A', symbol: 'S', name: 'N' }, from: 'SAFE', to: 'DANGER', flags: [] };
}

function card(title: string, color: Card['color'] = 'neutral'): Card {
  return { title, color, fields: [], description: [{ text: `${title} changed` }], actions: [] };
}

describe('retryDelayMs', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy, null))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelayMs(50, policy, null)).toBe(60_000);
  });

  it('honours a longer wait the platform asked for, never a shorter one', () => {
    expect(retryDelayMs(1, policy, 30_000)).toBe(30_000);
    expect(retryDelayMs(4, policy, 10)).toBe(8_000);
    expect(retryDelayMs(1, policy, 3_600_000)).toBe(3_600_000);
  });
});

describe('AlertCardCache', () => {
  it('builds one card per event and label, and evicts the least recently used', async () => {
    let built = 0;
    const cache = new AlertCardCache((event, label) => {
      built += 1;
      return card(`${event.key}/${label ?? ''}`);
    }, 2);
    const a = await cache.get(riskEvent('a'), null);
    expect(await cache.get(riskEvent('a'), null)).toBe(a);
    expect(await cache.get(riskEvent('a'), 'whale')).not.toBe(a);
    expect(built).toBe(2);
    await cache.get(riskEvent('a'), null); // touch a/null so that a/whale is the oldest
    await cache.get(riskEvent('b'), null);
    expect(built).toBe(3);
    expect(await cache.get(riskEvent('a'), null)).toBe(a);
    await cache.get(riskEvent('a'), 'whale');
    expect(built).toBe(4);
  });

  it('shares one asynchronous build between callers, and forgets a build that failed', async () => {
    let builds = 0;
    const cache = new AlertCardCache(async (event) => {
      builds += 1;
      if (builds === 1) throw new Error('picture failed');
      return card(event.key);
    });
    await expect(cache.get(riskEvent('x'), null)).rejects.toThrow('picture failed');
    const [one, two] = await Promise.all([cache.get(riskEvent('x'), null), cache.get(riskEvent('x'), null)]);
    expect(one).toBe(two);
    expect(builds).toBe(2);
  });
});

describe('renderOnce', () => {
  it('renders the same card object once', () => {
    let renders = 0;
    const render = renderOnce((c: Card) => {
      renders += 1;
      return c.title.toUpperCase();
    });
    const one = card('one');
    expect(render(one)).toBe('ONE');
    expect(render(one)).toBe('ONE');
    expect(render(card('one'))).toBe('ONE');
    expect(renders).toBe(2);
  });
});

describe('digestCard', () => {
  it('lists every alert, oldest first; a colour only when every alert has it (a colour names one risk status)', () => {
    const cards = [card('first', 'safe'), card('second', 'danger'), card('third', 'warning')];
    const digest = digestCard(cards, new Date(0));
    expect(digest.title).toBe('3 alerts');
    expect(digest.color).toBe('neutral');
    expect(digestCard([card('a', 'danger'), card('b', 'danger')], new Date(0)).color).toBe('danger');
    expect(digest.fields.map((f) => f.name)).toEqual(['first', 'second', 'third']);
    expect(digest.fields[1]?.value[0]?.text).toBe('second changed');
  });

  it('names its part when a backlog takes several, and keeps each entry short', () => {
    const long = { ...card('x'.repeat(500)), description: [{ text: 'y'.repeat(2_000) }] };
    const digest = digestCard(
      Array.from({ length: DIGEST_MAX_ITEMS }, () => long),
      new Date(0),
      2,
      3,
    );
    expect(digest.title).toBe(`${DIGEST_MAX_ITEMS} alerts (digest 2 of 3)`);
    const size = digest.fields.reduce((sum, f) => sum + f.name.length + (f.value[0]?.text.length ?? 0), 0);
    // Within Telegram's 4,096 characters a message and Discord's 6,000 an embed, with room for the title.
    expect(size).toBeLessThan(3_800);
  });
});
