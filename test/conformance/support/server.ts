/**
 * Finds the server the conformance suite talks to, over HTTP only: either an external server named
 * by CONFORMANCE_* variables, or the simulator started exactly as a user starts it
 * (`npm run simulator`). Nothing here imports the project's source, so the suite judges any server
 * by the spec alone.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { START_TIMEOUT_MS, startSimulator, type ListedToken, type Running } from './simulatorProcess';
import './provided';

export { REPO_ROOT, SEED, START_TIMEOUT_MS, type ListedToken } from './simulatorProcess';

export type Target =
  | { mode: 'simulator' }
  | { mode: 'external'; baseUrl: string; apiKey: string; tokens: ListedToken[]; wallets: string[] }
  | { mode: 'skip'; reason: string };

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** Decided synchronously at collection time, so a file can skip itself with the reason in its title. */
export function conformanceTarget(): Target {
  const baseUrl = process.env.CONFORMANCE_BASE_URL?.trim();
  if (!baseUrl) return { mode: 'simulator' };
  const apiKey = process.env.CONFORMANCE_API_KEY?.trim();
  const tokens = splitList(process.env.CONFORMANCE_TOKENS);
  const wallets = splitList(process.env.CONFORMANCE_WALLETS);
  const missing = [
    apiKey ? null : 'CONFORMANCE_API_KEY',
    tokens.length > 0 ? null : 'CONFORMANCE_TOKENS',
    wallets.length > 0 ? null : 'CONFORMANCE_WALLETS',
  ].filter((name): name is string => name !== null);
  if (missing.length > 0 || !apiKey) {
    return {
      mode: 'skip',
      reason: `CONFORMANCE_BASE_URL is set but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not (see docs/conformance.md)`,
    };
  }
  return {
    mode: 'external',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    tokens: tokens.map((address) => ({ address })),
    wallets,
  };
}

/** Title suffix that makes a skipped file say why in vitest's output. */
export function titleFor(title: string, target: Target): string {
  return target.mode === 'skip' ? `${title} (skipped: ${target.reason})` : title;
}

export interface Reply {
  /** `GET /path?query`, without the key, for failure messages. */
  request: string;
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined only when the body was not JSON, which already failed an assertion). */
  body: unknown;
}

export interface GetOptions {
  /** undefined: the configured key; null: no header at all; a string: that key. */
  key?: string | null;
}

export type Params = Record<string, string | number | undefined>;

export interface Conformance {
  mode: 'simulator' | 'external';
  /** True when the design guide's decisions for "not shown" are enforced (the simulator). */
  simulator: boolean;
  baseUrl: string;
  apiKey: string;
  tokens: ListedToken[];
  wallets: string[];
  get(path: string, params?: Params, options?: GetOptions): Promise<Reply>;
}

/** Every REST operation returns JSON (spec §1.1); each reply is checked for it once, here. */
async function get(baseUrl: string, apiKey: string, path: string, params: Params = {}, options: GetOptions = {}): Promise<Reply> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) query.append(name, String(value));
  }
  const search = query.toString();
  const request = `GET ${path}${search ? `?${search}` : ''}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = options.key === undefined ? apiKey : options.key;
  if (key !== null) headers['x-api-key'] = key;
  const response = await fetch(`${baseUrl}${path}${search ? `?${search}` : ''}`, { headers });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '(none)';
  expect(contentType, `${request} → ${response.status}: content-type should be application/json`).toMatch(/^application\/json\b/i);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    expect.fail(`${request} → ${response.status}: body is not JSON: ${text.slice(0, 200)}`);
  }
  return { request, status: response.status, headers: response.headers, text, body };
}

export function randomKey(): string {
  return `conf-${randomBytes(12).toString('hex')}`;
}

export interface UseOptions {
  /**
   * A simulator of the file's own, with a fresh key, instead of the one the global setup started
   * for the whole run: for a file that exhausts its key's rate limit, which every other file shares.
   */
  ownSimulator?: boolean;
}

/**
 * Registers beforeAll/afterAll in the calling describe and returns the context once ready. On the
 * simulator every file talks to the one started by the global setup (support/globalSetup.ts),
 * unless it asks for its own.
 */
export function useConformance(target: Target, options: UseOptions = {}): () => Conformance {
  let context: Conformance | undefined;
  let running: Running | undefined;

  beforeAll(async () => {
    if (target.mode === 'skip') return;
    if (target.mode === 'external') {
      const { baseUrl, apiKey } = target;
      context = {
        mode: 'external',
        simulator: false,
        baseUrl,
        apiKey,
        tokens: target.tokens,
        wallets: target.wallets,
        get: (path, params, options) => get(baseUrl, apiKey, path, params, options),
      };
      return;
    }
    const shared = inject('conformanceSimulator');
    if (shared === undefined)
      throw new Error("the conformance global setup started no simulator (is vitest.config.ts's globalSetup in place?)");
    const listing = shared;
    let { baseUrl, apiKey } = shared;
    if (options.ownSimulator === true) {
      apiKey = randomKey();
      running = await startSimulator(apiKey);
      baseUrl = running.baseUrl;
    }
    context = {
      mode: 'simulator',
      simulator: true,
      baseUrl,
      apiKey,
      tokens: listing.tokens,
      wallets: listing.wallets,
      get: (path, params, options) => get(baseUrl, apiKey, path, params, options),
    };
  }, START_TIMEOUT_MS + 30_000);

  afterAll(async () => {
    await running?.stop();
  }, 15_000);

  return () => {
    if (!context) throw new Error('conformance target not ready: beforeAll failed (see its error above)');
    return context;
  };
}
