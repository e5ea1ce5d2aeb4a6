/** Each opening of a socket numbers the events it carries, so a consumer tells a second serving from the first. */
import { afterEach, expect, it } from 'vitest';
import { StreamClient, type StreamEvent } from '../../../src/market/stream';
import { StreamFixture } from './support/fixture';
import { token } from './support/samples';
import { waitFor } from './support/wait';

const KEY = 'fixture-key-0123456789';
let fixture: StreamFixture | null = null;
let client: StreamClient | null = null;

afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = null;
  fixture = null;
});

it('numbers the events of each opening of a socket, the same within one, new after a reconnection', async () => {
  fixture = await StreamFixture.start({ apiKey: KEY });
  client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: KEY, reconnectBaseMs: 10, reconnectMaxMs: 50 });
  const events: StreamEvent[] = [];
  const T = token(1);
  client.subscribe('token-feed', { tokenAddress: T }, (event) => {
    events.push(event);
  });
  await waitFor(() => events.some((event) => event.snapshot), 'the first snapshot');
  fixture.change('token-feed', T);
  await waitFor(() => events.some((event) => !event.snapshot), 'a change');
  fixture.dropAll();
  await waitFor(() => events.filter((event) => event.snapshot).length === 2, 'the snapshot after reconnecting');
  const [first, change, again] = events;
  expect(typeof first?.served).toBe('number');
  expect(change?.served).toBe(first?.served);
  expect(again?.served).not.toBe(first?.served);
});
