/**
 * Starts the simulator once for the whole conformance suite, as a user starts it
 * (`npm run simulator`), and lists its tokens and wallets once: every file then talks to that one
 * process instead of starting two of its own. Against an external server
 * (CONFORMANCE_BASE_URL) nothing is started.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import './provided';
import { listSimulator, startSimulator } from './simulatorProcess';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.CONFORMANCE_BASE_URL?.trim()) {
    project.provide('conformanceSimulator', undefined);
    return async () => {};
  }
  const apiKey = `conf-${randomBytes(12).toString('hex')}`;
  const [listing, server] = await Promise.all([listSimulator(), startSimulator(apiKey)]);
  project.provide('conformanceSimulator', { baseUrl: server.baseUrl, apiKey, tokens: listing.tokens, wallets: listing.wallets });
  return () => server.stop();
}
