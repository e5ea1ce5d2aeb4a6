/**
 * A simulator and a real client over it, for tests of everything above the market data layer:
 * query builders, commands and chats all talk to the simulator over real HTTP on 127.0.0.1.
 */
import { MarketClient, type MarketClientOptions } from '../../src/market/client';
import { silentLogger } from '../../src/log';
import { QueryService, type QueryShares } from '../../src/query/service';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from 'tmds-simulator';
import type { Listing } from 'tmds-simulator';

export const TEST_API_KEY = 'test-key-4b1d9e';

export interface TestMarket {
  sim: RunningSimulator;
  client: MarketClient;
  query: QueryService;
  listing: Listing;
  /** Reads a REST endpoint straight from the simulator, for comparing a card with the raw data. */
  raw<T = unknown>(path: string): Promise<T>;
  close(): Promise<void>;
}

export async function startTestMarket(
  options: { simulator?: Partial<SimulatorOptions>; client?: Partial<MarketClientOptions>; now?: () => Date; shares?: QueryShares } = {},
): Promise<TestMarket> {
  const sim = await startSimulator({ apiKey: TEST_API_KEY, port: 0, seed: 42, ...options.simulator });
  const client = new MarketClient({ baseUrl: sim.baseUrl, apiKey: TEST_API_KEY, logger: silentLogger, ...options.client });
  const query = new QueryService(client, options.now, options.shares);
  return {
    sim,
    client,
    query,
    listing: sim.market.listing(),
    async raw<T>(path: string): Promise<T> {
      const response = await fetch(`${sim.baseUrl}${path}`, { headers: { 'x-api-key': TEST_API_KEY } });
      return (await response.json()) as T;
    },
    async close() {
      await client.close();
      await sim.close();
    },
  };
}
