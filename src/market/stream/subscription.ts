/** One caller's subscription, as the connections and the router see it. */
import type { StreamName } from '../endpoints';
import type { DeliveryQueue } from './queue';
import type { CheckedTarget } from './target';
import type { StreamEvent } from './types';

export interface Subscription {
  readonly id: number;
  readonly stream: StreamName;
  readonly target: CheckedTarget;
  /** Routing keys (see target.ts): the token, or each wallet. */
  readonly keys: readonly string[];
  readonly queue: DeliveryQueue<StreamEvent>;
}
