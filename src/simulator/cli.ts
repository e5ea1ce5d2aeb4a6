/**
 * `npm run simulator -- [flags]`: serves the simulated Token Market Data Service until SIGINT or
 * SIGTERM, or prints the market's listing with --list. The first two lines on stdout are the
 * settings a client needs (TMDS_BASE_URL, TMDS_WS_URL); the API key is never printed.
 */
import { parseArgs } from 'node:util';
import { Market } from './market';
import { startSimulator } from './server';

const USAGE = `Usage: npm run simulator -- [options]

Serves the Token Market Data Service on a deterministic simulated market.

Options:
  --port N                 port to listen on (default 8787; 0 = any free port)
  --host H                 interface to listen on (default 127.0.0.1)
  --api-key K              API key clients must send in x-api-key (default demo-key)
  --seed N                 market seed; the same seed gives the same market (default 42)
  --control                also serve the scenario controls (POST /_control/...)
  --trades-per-second N    trades the market makes by itself per second (default 0)
  --list                   print the market's tokens and wallets as one JSON line and exit
  --help                   show this help and exit`;

class UsageError extends Error {}

interface CliOptions {
  port: number;
  host: string;
  apiKey: string;
  seed: number;
  control: boolean;
  tradesPerSecond: number;
  list: boolean;
  help: boolean;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${raw.slice(0, 40)}")`);
  }
  return value;
}

function parse(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'api-key': { type: 'string' },
        seed: { type: 'string' },
        control: { type: 'boolean' },
        'trades-per-second': { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // parseArgs names the offending flag; its message never contains a flag's value.
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0] ?? 'bad arguments' : 'bad arguments');
  }
  const apiKey = values['api-key'] ?? 'demo-key';
  if (apiKey.length === 0) throw new UsageError('--api-key must not be empty');
  const host = values.host ?? '127.0.0.1';
  if (host.length === 0) throw new UsageError('--host must not be empty');
  const tradesRaw = values['trades-per-second'];
  const tradesPerSecond = tradesRaw === undefined ? 0 : Number(tradesRaw);
  if (!/^\d+(\.\d+)?$/.test(tradesRaw ?? '0') || !(tradesPerSecond >= 0 && tradesPerSecond <= 10_000)) {
    throw new UsageError(`--trades-per-second must be a number from 0 to 10000 (got "${(tradesRaw ?? '').slice(0, 40)}")`);
  }
  return {
    port: integer('port', values.port, 8787, 0, 65535),
    host,
    apiKey,
    seed: integer('seed', values.seed, 42, 0, 2 ** 32 - 1),
    control: values.control ?? false,
    tradesPerSecond,
    list: values.list ?? false,
    help: values.help ?? false,
  };
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`simulator: ${error.message} (see --help)\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (options.list) {
    process.stdout.write(`${JSON.stringify(new Market({ seed: options.seed }).listing())}\n`);
    return;
  }

  let simulator;
  try {
    simulator = await startSimulator({
      port: options.port,
      host: options.host,
      apiKey: options.apiKey,
      seed: options.seed,
      control: options.control,
      tradesPerSecond: options.tradesPerSecond,
    });
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const reason = code === 'EADDRINUSE' ? 'the port is in use' : error instanceof Error ? error.message : String(error);
    process.stderr.write(`simulator: cannot listen on ${options.host}:${options.port}: ${reason}\n`);
    process.exit(1);
  }
  const market = simulator.market;
  const tokens = market.tokenAddresses().slice(0, 3);
  const wallets = market.wallets().slice(0, 2);
  process.stdout.write(
    [
      `TMDS_BASE_URL=${simulator.baseUrl}`,
      `TMDS_WS_URL=${simulator.wsUrl}`,
      `Simulated market, seed ${options.seed}: ${market.tokenAddresses().length} tokens, ${market.wallets().length} shared wallets` +
        `${options.control ? ', scenario controls on' : ''}${options.tradesPerSecond > 0 ? `, ${options.tradesPerSecond} trades/s` : ''}.`,
      `Send the API key (set with --api-key) in the x-api-key header. Try: curl -H "x-api-key: $KEY" "${simulator.baseUrl}/api/token-data?address=${tokens[0] ?? ''}"`,
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
    process.stdout.write(`simulator: ${signal}, closing\n`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
