/**
 * A chat platform that posts each send key once, as Discord does with a message's nonce, and
 * remembers every message handed to it besides: what Telegram, which has no key, would show.
 */
import type { Card } from '../../src/cards/card';

/** The alerts a message shows: a digest's entries, or the one alert. */
export function alertsOf(card: Card): string[] {
  return /^\d+ alerts/.test(card.title) ? card.fields.map((field) => field.name) : [card.title];
}

export class KeyedPlatform {
  /** Messages posted, one per send key. */
  readonly posts: Array<{ key: string; alerts: string[] }> = [];
  /** Every message handed over, repeats included. */
  readonly handed: Array<{ key: string; alerts: string[] }> = [];

  post(card: Card, key = ''): void {
    const message = { key, alerts: alertsOf(card) };
    this.handed.push(message);
    if (!this.posts.some((post) => post.key === key)) this.posts.push(message);
  }

  /** Each alert the chat shows, as many times as it shows it, sorted. */
  shown(): string[] {
    return this.posts.flatMap((post) => post.alerts).sort();
  }
}
