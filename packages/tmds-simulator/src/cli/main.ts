/**
 * The command line (`tmds-simulator [flags]`): serves the simulated Token Market Data Service until
 * SIGINT or SIGTERM, or prints the market's listing with --list. The first two lines on stdout are
 * the settings a client needs (TMDS_BASE_URL, TMDS_WS_URL); the API key is never printed.
 */
import { SimulatorUsageError, parseCliArgs, usage, type CliOptions } from './args';
import { controlNames } from '../controls';
import { Market } from '../market';
import { startSimulator } from '../server';

/** How the program was started: the help's first line says `command`, every message starts with `name:`. */
export interface CliInvocation {
  command: string;
  name: string;
}

export const BIN_INVOCATION: CliInvocation = { command: 'tmds-simulator', name: 'tmds-simulator' };

/** Runs the command line on `argv` (the flags only); bad flags exit 2, a failed start exits 1. */
export function runSimulatorCli(argv: string[], invocation: CliInvocation = BIN_INVOCATION): void {
  main(argv, invocation).catch((error: unknown) => {
    process.stderr.write(`${invocation.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

async function main(argv: string[], { command, name }: CliInvocation): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCliArgs(argv, process.env);
  } catch (error) {
    if (!(error instanceof SimulatorUsageError)) throw error;
    process.stderr.write(`${name}: ${error.message} (see --help)\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${usage(command)}\n`);
    return;
  }
  if (options.list) {
    process.stdout.write(`${JSON.stringify(new Market({ seed: options.seed }).listing())}\n`);
    return;
  }

  const protocol = options.protocol ?? 'spec';
  let simulator;
  try {
    simulator = await startSimulator({
      port: options.port,
      host: options.host,
      apiKey: options.apiKey,
      seed: options.seed,
      control: options.control,
      tradesPerSecond: options.tradesPerSecond,
      streams: { maxSubscriptionsPerSocket: options.subscriptionsPerSocket },
      style: options.style,
      protocol,
    });
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const reason = code === 'EADDRINUSE' ? 'the port is in use' : error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: cannot listen on ${options.host}:${options.port}: ${reason}\n`);
    process.exit(1);
  }
  const market = simulator.market;
  const written =
    protocol === 'vendor' ? ', in the real vendor’s protocol' : options.style === 'real' ? ', written in the live service’s style' : '';
  const tokens = market.tokenAddresses().slice(0, 3);
  const wallets = market.wallets().slice(0, 2);
  process.stdout.write(
    [
      `TMDS_BASE_URL=${simulator.baseUrl}`,
      `TMDS_WS_URL=${simulator.wsUrl}`,
      `Simulated market, seed ${options.seed}: ${market.tokenAddresses().length} tokens, ${market.wallets().length} shared wallets` +
        `${options.control ? ', scenario controls on' : ''}${options.tradesPerSecond > 0 ? `, ${options.tradesPerSecond} trades/s` : ''}` +
        `${options.subscriptionsPerSocket === 1 ? ', one stream subscription a socket' : ''}` +
        `${written}.`,
      'Send the API key (set with --api-key) in the x-api-key header. Try: curl -H "x-api-key: $KEY" ' +
        `"${simulator.baseUrl}/api/token-data?address=${tokens[0] ?? ''}"`,
      protocol === 'vendor'
        ? `Streams: ${simulator.wsUrl}/ws/trades-live (also chart-live, holders-live) with the key in the x-api-key header: ` +
          'send {"tokenAddress":"..."}; /ws/token-feed: send {"type":"setFilters","filters":{}}'
        : `Streams: ${simulator.wsUrl}/ws/token-feed (also chart-live, holders-live, trades-live): ` +
          'send {"tokenAddress":"...","apiKey":"..."}',
      ...(options.control
        ? [`Controls: POST ${simulator.baseUrl}/_control/{${controlNames(protocol).join(',')}} with the key in x-api-key`]
        : []),
      `Tokens: ${tokens.join(' ')}`,
      `Wallets: ${wallets.join(' ')}`,
      '',
    ].join('\n'),
  );

  const running = simulator;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${name}: ${signal}, closing\n`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
