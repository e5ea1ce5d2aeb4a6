/** Subscribes and keeps every event, for assertions. */
import type { StreamName } from '../../../../src/market/endpoints';
import type { StreamClient, StreamEvent, StreamTarget } from '../../../../src/market/stream';

export interface Collected {
  events: StreamEvent[];
  unsubscribe: () => void;
}

export function collect(client: StreamClient, stream: StreamName, target: StreamTarget): Collected {
  const events: StreamEvent[] = [];
  const unsubscribe = client.subscribe(stream, target, (event) => {
    events.push(event);
  });
  return { events, unsubscribe };
}
