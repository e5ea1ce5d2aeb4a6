/** The commands part: the Dispatcher over the look-ups, the follow services and the store, shared by every chat. */
import { withSimulatedData } from '../cards/simulatedData';
import type { ClusterMember } from '../cluster/member';
import type { Config } from '../config';
import { Dispatcher } from '../dispatch/dispatcher';
import { loadCommands } from '../dispatch/registry';
import type { DailyDigests } from '../jobs/dailyDigest';
import type { Logger } from '../log';
import type { MarketClient } from '../market/client';
import type { Metrics } from '../ops/metrics';
import { CallBook } from '../query/callBook';
import { QueryService } from '../query/service';
import type { Store } from '../store/store';
import type { RunningChats } from './runningChats';
import type { WatchingPart } from './watching';

export interface CommandsDeps {
  config: Config;
  logger: Logger;
  now: () => Date;
  store: Store;
  client: MarketClient;
  simulated: boolean;
  metrics: Metrics | null;
  cluster: ClusterMember | null;
  watching: WatchingPart;
  digests: DailyDigests;
  chats: RunningChats;
}

export async function startCommands(deps: CommandsDeps): Promise<Dispatcher> {
  const { config, logger, now, store, client, simulated, metrics, cluster, watching, digests, chats } = deps;
  const { shares } = config;
  const commands = await loadCommands();
  return new Dispatcher({
    commands,
    // With several processes the watchlists are written by the senders: a change here tells them.
    services: {
      query: new QueryService(client, undefined, { technicalsPerChatPerMinute: shares.technicalsPerChatPerMinute }),
      follows: watching.follows,
      status: watching.status,
      chatSettings: store.chats,
      alertHistory: store.outbox,
      calls: new CallBook(store.calls, now, { minLiquidityUsd: config.calls.minLiquidityUsd }),
      // /testalert's samples go through the asking chat's platform sender (the chats start after the commands).
      sendToChat: async (chat, card) => {
        const sender = chats.senderFor(chat.platform);
        if (sender === null) return { status: 'gone', reason: 'this process sends nothing to that platform' };
        return sender.send(chat, simulated ? withSimulatedData(card) : card, []);
      },
      digests: {
        changed: async () => {
          cluster?.digestsChanged();
          if (config.roles.set.has('sender')) await digests.changed();
        },
      },
    },
    actionKeys: store.actionKeys,
    actionKeyBudget: { perPerson: shares.actionKeysPerPerson, perChat: shares.actionKeysPerChat },
    logger,
    now,
    // On the simulator every answer says so, whatever chat shows it.
    ...(simulated ? { markCard: withSimulatedData } : {}),
    ...(metrics === null ? {} : { onAnswered: metrics.answered }),
  });
}
