/**
 * The simulator as a user starts it (`npm run simulator`), in a process of its own: its listing of
 * tokens and wallets, and a server on a free port. No vitest here: the conformance suite's global
 * setup runs it before any test worker exists.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

export interface Listing {
  tokens: ListedToken[];
  wallets: string[];
}

function tail(text: string, lines = 30): string {
  return text.split('\n').slice(-lines).join('\n');
}

/** `npm run simulator -- --seed 42 --list`: npm prints its own header first, the listing is the line starting with `{`. */
export async function listSimulator(): Promise<Listing> {
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

export interface Running {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * `npm run simulator -- --port 0 --api-key KEY --seed 42` in its own process group, so that npm,
 * the shell and tsx's node all go when the group is signalled.
 */
export async function startSimulator(apiKey: string): Promise<Running> {
  const child: ChildProcess = spawn('npm', ['run', 'simulator', '--', '--port', '0', '--api-key', apiKey, '--seed', SEED], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: simulatorEnv(),
  });
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
      () =>
        reject(
          new Error(
            `simulator printed no TMDS_BASE_URL line within ${START_TIMEOUT_MS} ms\nstdout:\n${tail(stdout)}\nstderr:\n${tail(stderr)}`,
          ),
        ),
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
      reject(
        new Error(
          `simulator exited (code ${code}, signal ${signal}) before printing TMDS_BASE_URL\nstdout:\n${tail(stdout)}\nstderr:\n${tail(stderr)}`,
        ),
      );
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
