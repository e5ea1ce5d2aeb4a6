/**
 * discord.js's `ws` options for a bot whose gateway shards run in several processes: IDENTIFYs
 * paced across the processes (identifyThrottler.ts) and sessions shared, so that a replacement
 * process resumes a dead one's shards (sharedSessions.ts), both through a GatewayCoordination.
 *
 * discord.js hands `buildIdentifyThrottler` and `buildStrategy` to @discordjs/ws as they are; its
 * own in-memory sessions stay, and the strategy reads and writes the shared ones around them.
 */
import { SimpleShardingStrategy, type WebSocketOptions } from 'discord.js';
import type { Logger } from '../../log';
import type { GatewayCoordination } from './gatewayCoordination';
import { ClusterIdentifyThrottler } from './identifyThrottler';
import { SharedSessions } from './sharedSessions';

export type GatewayWsOptions = Required<Pick<WebSocketOptions, 'buildIdentifyThrottler' | 'buildStrategy'>>;

export function clusterWsOptions(coordination: GatewayCoordination, logger: Logger): GatewayWsOptions {
  return {
    async buildIdentifyThrottler(manager) {
      const gateway = await manager.fetchGatewayInformation();
      return new ClusterIdentifyThrottler(gateway.session_start_limit.max_concurrency, coordination, logger);
    },
    buildStrategy: (manager) => new SharedSessions(manager, coordination, logger).strategy(new SimpleShardingStrategy(manager)),
  };
}
