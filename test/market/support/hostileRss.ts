/**
 * Measures the client's peak memory while a hostile server answers every call with the biggest
 * bodies the caps allow (hostileBodies.ts), the client running in a child process of its own
 * (hostileRssChild.ts). Used by the memory test and by `npm run bench -- hostile`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HEAP_LIMIT_FLAG } from '../../../src/heapLimit';
import { ENDPOINTS, type EndpointName } from '../../../src/market/endpoints';
import { HOSTILE_VARIANTS, hostileBody, type HostileVariant } from './hostileBodies';
import { startHostileServer } from './hostileServer';

export interface HostileRssResult {
  peakRssMb: number;
  cachedBytes: number;
  /** "endpoint:kind" → calls that ended so (ok, unreadable, not-found…). */
  outcomes: Record<string, number>;
}

const CHILD = fileURLToPath(new URL('./hostileRssChild.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the child against a hostile server; each round calls every endpoint `concurrency` times at once, the variants in turn. */
export async function measureHostilePeakRss(options: {
  rounds: number;
  concurrency: number;
  variants?: readonly HostileVariant[];
}): Promise<HostileRssResult> {
  const bodies = new Map<EndpointName, Buffer[]>();
  const variants = options.variants ?? HOSTILE_VARIANTS;
  for (const endpoint of ENDPOINTS)
    bodies.set(
      endpoint,
      variants.map((variant) => hostileBody(endpoint, variant)),
    );
  const served = new Map<EndpointName, number>();
  const server = await startHostileServer((request, res) => {
    const endpoint = request.endpoint as EndpointName;
    const variants = bodies.get(endpoint);
    if (variants === undefined) {
      res.writeHead(404).end();
      return;
    }
    const count = served.get(endpoint) ?? 0;
    served.set(endpoint, count + 1);
    // The same variant for a whole batch of concurrent calls, then the next one.
    const body = variants[Math.floor(count / options.concurrency) % variants.length] ?? Buffer.alloc(0);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  });
  try {
    const output = await new Promise<string>((resolve, reject) => {
      // With the heap cap the bot runs with (src/heapLimit.ts): the figure is the bot's client.
      const child = spawn(
        process.execPath,
        [HEAP_LIMIT_FLAG, '--import', 'tsx', CHILD, server.url, String(options.rounds), String(options.concurrency)],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`the measuring process exited with ${code}: ${stderr.slice(-2_000)}`)),
      );
    });
    const line = output.trim().split('\n').at(-1) ?? '{}';
    return JSON.parse(line) as HostileRssResult;
  } finally {
    await server.close();
  }
}
