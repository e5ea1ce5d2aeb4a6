/** One caller's subscription, as the connections and the router see it. */
import type { StreamName } from '../endpoints';
import type { DeliveryQueue } from './queue';
import type { CheckedTarget } from './target';
import type { StreamEvent, SubscriptionRejection } from './types';

export interface Subscription {
  readonly id: number;
  readonly stream: StreamName;
  readonly target: CheckedTarget;
  /** Routing keys (see target.ts): the token, or each wallet. */
  readonly keys: readonly string[];
  readonly queue: DeliveryQueue<StreamEvent>;
  /** The caller's callback for a target the server refused, if it gave one. */
  readonly onRejected: ((rejection: SubscriptionRejection) => void) | null;
}
