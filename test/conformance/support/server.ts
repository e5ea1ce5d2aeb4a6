/**
 * Finds the server the conformance suite talks to, over HTTP only: either an external server named
 * by CONFORMANCE_* variables, or the simulator started exactly as a user starts it
 * (`npm run simulator`). Nothing here imports the project's source, so the suite judges any server
 * by the spec alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SEED = '42';
/** Starting tsx and building a market can be slow on a loaded machine; a hang still fails. */
export const START_TIMEOUT_MS = 90_000;

export interface ListedToken {
  address: string;
  symbol?: string;
  name?: string;
  riskStatus?: string;
}

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
  expect(contentType, `${request} → ${response.status}: content-type should be application/json`).toMatch(
    /^application\/json\b/i,
  );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    expect.fail(`${request} → ${response.status}: body is not JSON: ${text.slice(0, 200)}`);
  }
  return { request, status: response.status, headers: response.headers, text, body };
}

interface Listing {
  tokens: ListedToken[];
  wallets: string[];
}

function tail(text: string, lines = 30): string {
  return text.split('\n').slice(-lines).join('\n');
}

/** `npm run simulator -- --seed 42 --list`: npm prints its own header first, the listing is the line starting with `{`. */
async function listSimulator(): Promise<Listing> {
  const child = spawn('npm', ['run', 'simulator', '--', '--seed', SEED, '--list'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: simulatorEnv(),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve(exitCode));
  });
  const where = `npm run simulator -- --seed ${SEED} --list`;
  if (code !== 0) throw new Error(`${where} exited with ${code}\nstdout:\n${tail(stdout)}\nstderr:\n${tail(stderr)}`);
  const line = stdout.split('\n').find((candidate) => candidate.trimStart().startsWith('{'));
  if (!line) throw new Error(`${where} printed no JSON line\nstdout:\n${tail(stdout)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new Error(`${where} printed a line that is not JSON: ${line.slice(0, 300)} (${String(error)})`);
  }
  const listing = parsed as { tokens?: unknown; wallets?: unknown };
  const tokens = Array.isArray(listing.tokens) ? listing.tokens : [];
  const wallets = Array.isArray(listing.wallets) ? listing.wallets : [];
  const wellFormed =
    tokens.length > 0 &&
    wallets.length > 0 &&
    tokens.every(
      (token: unknown) =>
        typeof token === 'object' &&
        token !== null &&
        typeof (token as ListedToken).address === 'string' &&
        typeof (token as ListedToken).symbol === 'string' &&
        typeof (token as ListedToken).name === 'string' &&
        typeof (token as ListedToken).riskStatus === 'string',
    ) &&
    wallets.every((wallet: unknown) => typeof wallet === 'string');
  if (!wellFormed) {
    throw new Error(
      `${where} should print {"tokens":[{"address","symbol","name","riskStatus"}],"wallets":["..."]} with at least one of each; got ${line.slice(0, 300)}`,
    );
  }
  return { tokens: tokens as ListedToken[], wallets: wallets as string[] };
}

function simulatorEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of Object.keys(env)) {
    if (name.startsWith('CONFORMANCE_')) delete env[name];
  }
  return env;
}

interface Running {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * `npm run simulator -- --port 0 --api-key KEY --seed 42` in its own process group, so that npm,
 * the shell and tsx's node all go when the group is signalled.
 */
async function startSimulator(apiKey: string): Promise<Running> {
  const child: ChildProcess = spawn(
    'npm',
    ['run', 'simulator', '--', '--port', '0', '--api-key', apiKey, '--seed', SEED],
    { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: simulatorEnv() },
  );
  const pid = child.pid;
  let exited = false;
  child.on('exit', () => (exited = true));
  const killGroup = (signal: NodeJS.Signals): void => {
    if (pid === undefined || exited) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  // afterAll may never run if the worker dies; a simulator must not outlive the test process.
  const onExit = (): void => killGroup('SIGKILL');
  process.once('exit', onExit);

  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`simulator printed no TMDS_BASE_URL line within ${START_TIMEOUT_MS} ms\nstdout:\n${tail(stdout)}\nstderr:\n${tail(stderr)}`)),
      START_TIMEOUT_MS,
    );
    // Reading continues after the line is found: a full pipe would block the simulator's writes.
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString('utf8')).slice(-20_000);
      const match = /^TMDS_BASE_URL=(\S*)\s*$/m.exec(stdout);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      const url = match[1].replace(/\/+$/, '');
      if (/^http:\/\/127\.0\.0\.1:[1-9]\d*$/.test(url)) resolve(url);
      else reject(new Error(`simulator printed TMDS_BASE_URL=${match[1]}; expected http://127.0.0.1:PORT with the port it bound`));
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`simulator exited (code ${code}, signal ${signal}) before printing TMDS_BASE_URL\nstdout:\n${tail(stdout)}\nstderr:\n${tail(stderr)}`));
    });
  }).catch((error: unknown) => {
    killGroup('SIGKILL');
    process.off('exit', onExit);
    throw error;
  });

  return {
    baseUrl,
    async stop() {
      process.off('exit', onExit);
      if (exited || pid === undefined) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
      // npm may exit before tsx's node; make sure nothing of the group is left.
      killGroup('SIGKILL');
    },
  };
}

export function randomKey(): string {
  return `conf-${randomBytes(12).toString('hex')}`;
}

/**
 * Registers beforeAll/afterAll in the calling describe and returns the context once ready.
 * Each file gets its own simulator, so no file can exhaust another's rate limit.
 */
export function useConformance(target: Target): () => Conformance {
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
    const apiKey = randomKey();
    const [listing, server] = await Promise.all([listSimulator(), startSimulator(apiKey)]);
    running = server;
    const { baseUrl } = server;
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
