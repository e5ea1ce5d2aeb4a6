/**
 * /testalert's samples: every kind the registry holds has one, and each makes its kind's card.
 */
import { describe, expect, it } from 'vitest';
import { alertKinds } from '../../src/alerts/registry';
import { sampleEvent } from '../../src/alerts/samples';

const AT = Date.parse('2025-01-15T12:00:00Z');

describe('sample events', () => {
  it('has one for every registered kind, of that kind, and its card is made from it', () => {
    expect(alertKinds().length).toBeGreaterThan(10);
    for (const kind of alertKinds()) {
      const event = sampleEvent(kind.name, AT);
      expect(event, `no sample for ${kind.name}`).not.toBeNull();
      if (event === null) continue;
      expect(event.kind).toBe(kind.name);
      expect(event.at).toBe(AT);
      expect(kind.card(event, null).title.length).toBeGreaterThan(0);
    }
  });

  it('has none for a kind nobody registered', () => {
    expect(sampleEvent('no-such-kind', AT)).toBeNull();
    expect(sampleEvent('toString', AT)).toBeNull();
  });
});
