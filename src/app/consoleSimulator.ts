/** What the console's /simulate is handed of the built-in simulator (src/chats/console/simulateCommand.ts). */
import type { ConsoleSimulator } from '../chats/console/start';
import { ControlError, MarketMutationError, SIMULATED_WHALE_SHARE_PCT, summarize, whaleBuy, type RunningSimulator } from 'tmds-simulator';

/**
 * The built-in simulator as the console's /simulate drives it, with the simulator's own functions:
 * the console imports only the simulator's types, this composition root its code.
 */
export function consoleSimulator(simulator: RunningSimulator): ConsoleSimulator {
  return {
    market: simulator.market,
    controls: simulator.controls,
    baseUrl: simulator.baseUrl,
    whaleBuy,
    summarize,
    whaleSharePct: SIMULATED_WHALE_SHARE_PCT,
    refusal: (error) => {
      if (error instanceof ControlError) return { status: error.status, message: error.message };
      if (error instanceof MarketMutationError) return { status: 400, message: error.message };
      return null;
    },
  };
}
