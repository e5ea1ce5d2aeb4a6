/**
 * The simulator's command-line flags: parsed and checked in one place, so a bad flag gives one
 * clear line, and testable without starting a process.
 */
import { parseArgs } from 'node:util';
import { SIMULATOR_PROTOCOLS, isSimulatorProtocol, type SimulatorProtocol } from '../protocol';
import { DEFAULT_STREAM_OPTIONS } from '../streams';
import { WIRE_STYLES, isWireStyle, type WireStyle } from '../wireStyle';

const OPTIONS = `

Serves the Token Market Data Service on a deterministic simulated market.

Options:
  --port N                 port to listen on (default 8787; 0 = any free port)
  --host H                 interface to listen on (default 127.0.0.1)
  --api-key K              API key clients must send in x-api-key (default demo-key)
  --seed N                 market seed; the same seed gives the same market (default 42)
  --control                also serve the scenario controls (POST /_control/...)
  --trades-per-second N    trades the market makes by itself per second (default 2; 0 = a still market)
  --subscriptions-per-socket N
                           stream subscriptions one socket may hold (default 1000); 1 makes a strict
                           service, which closes a socket (4000) on its second subscription
  --style S                how tokens are written: spec (default; as the spec's tables) or real (as the
                           live service: no pools in token-feed frames, SOL as token0, scheme-less links)
  --protocol P             the protocol spoken: spec (default) or vendor (the real service's: the key in
                           the x-api-key header of streams, welcome and confirmation messages, event
                           messages without snapshots, token-feed as a filtered feed of new tokens,
                           token-data as recorded; implies --style real). SIMULATOR_PROTOCOL in the
                           environment says the same; the flag wins
  --list                   print the market's tokens and wallets as one JSON line and exit
  --help                   show this help and exit`;

/** The help, its first line naming how the program is started (`tmds-simulator [options]` by default). */
export function usage(command = 'tmds-simulator'): string {
  return `Usage: ${command} [options]${OPTIONS}`;
}

/** The help of the `tmds-simulator` command. */
export const USAGE = usage();

/**
 * A market that moves by itself makes the live streams worth watching from a plain start; two
 * trades a second keeps REST answers stable enough for scripts (the conformance suite passes at
 * rates a hundred times higher).
 */
export const DEFAULT_TRADES_PER_SECOND = 2;

export class SimulatorUsageError extends Error {}

export interface CliOptions {
  port: number;
  host: string;
  apiKey: string;
  seed: number;
  control: boolean;
  tradesPerSecond: number;
  subscriptionsPerSocket: number;
  style: WireStyle;
  /** From --protocol, else SIMULATOR_PROTOCOL in the environment given; absent when neither says (the spec protocol). */
  protocol?: SimulatorProtocol;
  list: boolean;
  help: boolean;
}

/** The environment variable that chooses the protocol when --protocol does not. */
export const PROTOCOL_ENV = 'SIMULATOR_PROTOCOL';

/** --protocol, else the environment's SIMULATOR_PROTOCOL (empty counts as unset); undefined when neither says. */
function protocolOf(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): SimulatorProtocol | undefined {
  const fromEnv = env[PROTOCOL_ENV]?.trim();
  const [raw, source] = flag !== undefined ? [flag, '--protocol'] : fromEnv ? [fromEnv, PROTOCOL_ENV] : [undefined, ''];
  if (raw === undefined) return undefined;
  if (!isSimulatorProtocol(raw))
    throw new SimulatorUsageError(`${source} must be one of ${SIMULATOR_PROTOCOLS.join(', ')} (got "${raw.slice(0, 40)}")`);
  return raw;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new SimulatorUsageError(`--${name} must be an integer from ${min} to ${max} (got "${raw.slice(0, 40)}")`);
  }
  return value;
}

/**
 * The flags of `argv`; `env` is read for SIMULATOR_PROTOCOL only (the program passes
 * process.env; without it, the flags alone count).
 */
export function parseCliArgs(argv: string[], env: Readonly<Record<string, string | undefined>> = {}): CliOptions {
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
        'subscriptions-per-socket': { type: 'string' },
        style: { type: 'string' },
        protocol: { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // parseArgs names the offending flag; its message never contains a flag's value.
    throw new SimulatorUsageError(error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : 'bad arguments');
  }
  const apiKey = values['api-key'] ?? 'demo-key';
  if (apiKey.length === 0) throw new SimulatorUsageError('--api-key must not be empty');
  const host = values.host ?? '127.0.0.1';
  if (host.length === 0) throw new SimulatorUsageError('--host must not be empty');
  const tradesRaw = values['trades-per-second'];
  const tradesPerSecond = tradesRaw === undefined ? DEFAULT_TRADES_PER_SECOND : Number(tradesRaw);
  if (!/^\d+(\.\d+)?$/.test(tradesRaw ?? '0') || !(tradesPerSecond >= 0 && tradesPerSecond <= 10_000)) {
    throw new SimulatorUsageError(`--trades-per-second must be a number from 0 to 10000 (got "${(tradesRaw ?? '').slice(0, 40)}")`);
  }
  const givenStyle = values.style ?? 'spec';
  if (!isWireStyle(givenStyle)) {
    throw new SimulatorUsageError(`--style must be one of ${WIRE_STYLES.join(', ')} (got "${givenStyle.slice(0, 40)}")`);
  }
  const protocol = protocolOf(values.protocol, env);
  if (protocol === 'vendor' && values.style === 'spec') {
    throw new SimulatorUsageError(
      '--style spec belongs to the spec protocol: the vendor protocol writes tokens as the live service (real)',
    );
  }
  // The vendor protocol writes tokens in the live service's style.
  const style: WireStyle = protocol === 'vendor' ? 'real' : givenStyle;
  return {
    port: integer('port', values.port, 8787, 0, 65535),
    host,
    apiKey,
    seed: integer('seed', values.seed, 42, 0, 2 ** 32 - 1),
    control: values.control ?? false,
    tradesPerSecond,
    subscriptionsPerSocket: integer(
      'subscriptions-per-socket',
      values['subscriptions-per-socket'],
      DEFAULT_STREAM_OPTIONS.maxSubscriptionsPerSocket,
      1,
      DEFAULT_STREAM_OPTIONS.maxSubscriptionsPerSocket,
    ),
    style,
    ...(protocol === undefined ? {} : { protocol }),
    list: values.list ?? false,
    help: values.help ?? false,
  };
}
