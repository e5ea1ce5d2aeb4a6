/** Shared helpers for the simulator's tests: start one in-process, call it over real HTTP. */
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../src/server';

export const KEY = 'sim-test-key-7c1e';

export async function start(options: Partial<SimulatorOptions> = {}): Promise<RunningSimulator> {
  return startSimulator({ apiKey: KEY, port: 0, seed: 42, ...options });
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
