/**
 * The console chat as one of the bot's chats: a banner, then commands read line by line from the
 * input, and alerts printed as they arrive. It ends at the end of its input, which ends the bot.
 */
import type { Market } from 'tmds-simulator';
import type { ChatStarter } from '../startChats';
import { createConsoleAlertSender } from './alertSender';
import { runConsoleChat } from './chat';
import { withConsoleCommands } from './consoleCommands';
import { simulateCommand, type SimulateTarget } from './simulateCommand';
import { withSimulatedData } from '../../cards/simulatedData';

export interface ConsoleIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Colour and a prompt, for a terminal. */
  interactive: boolean;
  /** Where pictures (charts) are written. */
  outDir: string;
  /** The banner's line saying where the logs go (src/chats/console/logDestination.ts); none when not given. */
  logs?: string;
}

/** The built-in simulator as the console shows and drives it: /simulate's target and its address. */
export interface ConsoleSimulator extends SimulateTarget {
  baseUrl: string;
}

/**
 * Addresses for the banner: tokens with ordinary names first (the hostile ones are there to be
 * found, not to greet), and wallets that traded the first of them, so `/trades` with the two
 * suggestions has something to show. Only the first token's history is generated: the whole
 * listing would generate every token's, a quarter of a second at each start.
 */
export function addressesToTry(market: Market): { tokens: string[]; wallets: string[] } {
  const hostile = new Set(market.hostileTokens());
  const shared = market.wallets();
  const tokens = market
    .tokenAddresses()
    .filter((address) => !hostile.has(address))
    .slice(0, 3);
  const first = tokens[0];
  const traded = first === undefined ? [] : (market.tokenTrades(first, shared)?.tradeHistory ?? []).map((trade) => trade.makerData.address);
  const wallets = [...new Set([...traded, ...shared])].slice(0, 2);
  return { tokens, wallets };
}

function banner(simulator: ConsoleSimulator | null, seed: number, baseUrl: string): string {
  if (simulator === null) return `TokenWatch console chat on ${baseUrl}; type /help\n`;
  const { tokens, wallets } = addressesToTry(simulator.market);
  const first = tokens[0] ?? 'ADDRESS';
  return [
    `TokenWatch console chat on the built-in simulator (seed ${seed}, ${simulator.baseUrl}); ` +
      `try /token ${tokens.join(' or ')}, /track token ${first}, /wallet ${wallets.join(' or ')}, /help`,
    // The one line that says what the bot is for, and that nothing else is needed to see it (packages/tmds-simulator/src/pace.ts).
    `The market trades by itself: /track token ${first} all and an alert arrives within 2 minutes; /simulate forces one now.`,
    '',
  ].join('\n');
}

export function createConsoleChat(io: ConsoleIo, simulator: ConsoleSimulator | null, baseUrl: string): ChatStarter {
  return async ({ dispatcher: botDispatcher, config, logger }) => {
    io.output.write(banner(simulator, config.simulatorSeed, baseUrl));
    // /simulate exists only here: in the console, on the built-in simulator.
    const dispatcher =
      simulator === null
        ? botDispatcher
        : withConsoleCommands(botDispatcher, [simulateCommand(simulator)], { markCard: withSimulatedData, logger });
    if (io.logs !== undefined) io.output.write(`${io.logs}\n`);
    const abort = new AbortController();
    const ended = runConsoleChat({
      input: io.input,
      output: io.output,
      dispatcher,
      outDir: io.outDir,
      interactive: io.interactive,
      signal: abort.signal,
    });
    return {
      name: 'console',
      sender: createConsoleAlertSender({ output: io.output, interactive: io.interactive, outDir: io.outDir }),
      ended,
      async stop() {
        abort.abort();
        await ended;
      },
    };
  };
}
