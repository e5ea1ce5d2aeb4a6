/** Shared helpers for the simulator's tests: start one in-process, call it over real HTTP. */
import { afterAll, beforeAll } from 'vitest';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../src/server';

export const KEY = 'sim-test-key-7c1e';

export async function start(options: Partial<SimulatorOptions> = {}): Promise<RunningSimulator> {
  return startSimulator({ apiKey: KEY, port: 0, seed: 42, ...options });
}

/** One simulator that every test of a file reads, and its tokens. */
export interface SharedSimulator {
  readonly sim: RunningSimulator;
  readonly tokens: string[];
}

/**
 * Starts a simulator before the calling file's tests and closes it after them, so that a file
 * need not repeat the hooks. Its fields are set in beforeAll: read them inside tests and hooks.
 */
export function shareSimulator(options: Partial<SimulatorOptions> = {}): SharedSimulator {
  let running: RunningSimulator | undefined;
  let tokens: string[] = [];
  beforeAll(async () => {
    running = await start(options);
    tokens = running.market.tokenAddresses();
  });
  afterAll(async () => {
    await running?.close();
  });
  return {
    get sim(): RunningSimulator {
      if (!running) throw new Error('the shared simulator starts in beforeAll: read it inside a test');
      return running;
    },
    get tokens(): string[] {
      return tokens;
    },
  };
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** GET with the API key (or the given one, or none when null); the body parsed when it is JSON. */
export async function get<T = unknown>(sim: RunningSimulator, path: string, key: string | null = KEY): Promise<Answer<T>> {
  const response = await fetch(`${sim.baseUrl}${path}`, { headers: key === null ? {} : { 'x-api-key': key } });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body: body as T, text };
}

/** A well-formed base58 address that no simulated token or wallet has. */
export const UNKNOWN_ADDRESS = 'UnknownAddressUnknownAddressUnknownAddress1';

export function sum(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}
