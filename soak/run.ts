/**
 * `npm run soak -- --days 30`: a month of the bot in an hour. The bot (the whole app, on a real
 * SQLite file) runs in this process against the simulator in a child process, both on one clock
 * running `speed` times as fast as the machine's (clock.ts); 200 chats of the soak platform
 * (platform.ts) follow 2,000 tokens and wallets and use the bot every simulated hour (load.ts);
 * the bot is restarted every few simulated days; every simulated hour one sample (sample.ts) of
 * memory, handles, the event loop, the database and the log is taken. Writes the samples as CSV
 * and a picture (picture.ts) and prints each curve's slope after day 1 and what an alert costs on
 * disk. docs/soak.md says what it runs, what is and is not on the fast clock, and the figures.
 *
 * Flags: --days N (30), --minutes M (the real time to take, 60; sets the speed), --speed X
 * (instead of --minutes), --chats N (200), --follows N (2000), --wallets N (200), --restart-days N
 * (3), --seed N (42), --out DIR (docs), --keep (leave the database and log in the work folder).
 * `npm run soak -- --disk-cost PATH` prints what an alert costs in that SQLite database and exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { startApp, type App } from '../src/app';
import { chatPlatformNames, registerChatPlatform } from '../src/chats/platforms';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { DAY_MS, HOUR_MS, SOAK_KEY, simulatedNow, type SoakClock } from './clock';
import { diskCost } from './diskCost';
import { hourOfUse, setUp, type LoadPlan } from './load';
import { drawSoak } from './picture';
import { soakChats, soakPlatform } from './platform';
import { slopePerDay, takeSample, toCsv, type Sample } from './sample';

interface Flags {
  days: number;
  minutes: number;
  speed: number | null;
  chats: number;
  follows: number;
  wallets: number;
  restartDays: number;
  seed: number;
  out: string;
  keep: boolean;
}

function parseFlags(argv: readonly string[]): Flags {
  const flags: Flags = {
    days: 30,
    minutes: 60,
    speed: null,
    chats: 200,
    follows: 2000,
    wallets: 200,
    restartDays: 3,
    seed: 42,
    out: 'docs',
    keep: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const name = argv[index] ?? '';
    if (name === '--keep') {
      flags.keep = true;
      continue;
    }
    const value = argv[++index] ?? '';
    const number = Number(value);
    const numeric = (key: keyof Flags) => {
      if (!(Number.isFinite(number) && number > 0)) throw new Error(`${name} wants a positive number, not "${value}"`);
      (flags as unknown as Record<string, number>)[key] = number;
    };
    if (name === '--days') numeric('days');
    else if (name === '--minutes') numeric('minutes');
    else if (name === '--speed') numeric('speed');
    else if (name === '--chats') numeric('chats');
    else if (name === '--follows') numeric('follows');
    else if (name === '--wallets') numeric('wallets');
    else if (name === '--restart-days') numeric('restartDays');
    else if (name === '--seed') numeric('seed');
    else if (name === '--out') flags.out = value;
    else
      throw new Error(
        `unknown flag ${name}; flags: --days --minutes --speed --chats --follows --wallets --restart-days --seed --out --keep`,
      );
  }
  return flags;
}

interface Market {
  child: ChildProcess;
  baseUrl: string;
  wsUrl: string;
  tokens: string[];
  wallets: string[];
}

async function startMarket(clock: SoakClock, flags: Flags): Promise<Market> {
  const script = fileURLToPath(new URL('./simulator.ts', import.meta.url));
  const args = [clock.realStartMs, clock.simStartMs, clock.speed, flags.seed, flags.wallets].map(String);
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the soak simulator exited (${code}) before it started`)));
  });
  const started = JSON.parse(first) as Omit<Market, 'child'>;
  return { child, ...started };
}

function mb(value: number): string {
  return value.toFixed(1);
}

interface Report {
  flags: Flags;
  samples: Sample[];
  speed: number;
  realStart: number;
  market: Market;
  restarts: number;
  dbPath: string;
}

/** The CSV and the picture in the output folder; each curve's slope and the disk cost of an alert on stdout. */
function writeReport({ flags, samples, speed, realStart, market, restarts, dbPath }: Report): void {
  mkdirSync(flags.out, { recursive: true });
  writeFileSync(join(flags.out, 'soak.csv'), toCsv(samples));
  const realMin = (Date.now() - realStart) / 60_000;
  const subtitle = `${flags.days} days at ${Math.round(speed)}× in ${realMin.toFixed(0)} min · ${flags.chats} chats · ${flags.follows} follows over ${market.tokens.length} tokens and ${market.wallets.length} wallets · restart every ${flags.restartDays} days`;
  writeFileSync(join(flags.out, 'soak.png'), drawSoak(samples, subtitle));
  const columns: Array<keyof Sample> = [
    'rss_mb',
    'heap_mb',
    'external_mb',
    'db_mb',
    'wal_mb',
    'log_mb',
    'open_files',
    'timers',
    'sockets',
    'loop_p99_ms',
    'outbox_backlog',
    'rows_outbox',
    'rows_events',
    'rows_action_keys',
    'rows_calls',
    'rows_follows',
    'rows_token_state',
    'rows_wallet_state',
    'rows_chats',
    'rows_call_chats',
  ];
  const last = samples[samples.length - 1];
  process.stdout.write(
    `\n${subtitle}\n\n| curve | at day 1 → end | slope a day after day 1 | slope a day over the last third |\n|---|---|---|---|\n`,
  );
  const atDay = (day: number) => samples.find((s) => s.sim_day >= day) ?? last;
  for (const column of columns) {
    const first = atDay(1)?.[column] ?? Number.NaN;
    const end = last?.[column] ?? Number.NaN;
    process.stdout.write(
      `| ${column} | ${first.toFixed(1)} → ${end.toFixed(1)} | ${slopePerDay(samples, column, 1).toFixed(3)} | ${slopePerDay(samples, column, (flags.days * 2) / 3).toFixed(3)} |\n`,
    );
  }
  process.stdout.write(
    `\nalerts delivered: ${soakChats.alertsSent} · answers ${soakChats.answers} (${soakChats.failedAnswers} failed, ${soakChats.skipped} skipped) · restarts ${restarts}\n\n`,
  );
  process.stdout.write(`${diskCost(dbPath)}\n`);
}

interface Drive {
  flags: Flags;
  plan: LoadPlan;
  simNow: () => number;
  simStartMs: number;
  running: Map<Promise<unknown>, string>;
  bot: { readonly app: App; restart(): Promise<void> };
  sample: () => Sample;
}

/**
 * The simulated days: a sample and an hour of use every simulated hour, and on the simulated clock
 * what the bot runs on the machine's timers (see docs/soak.md): the daily watchlists, the call
 * peaks, the prune of delivered alerts, the reconciliation; a restart every few days.
 */
async function drive({ flags, plan, simNow, simStartMs, running, bot, sample }: Drive): Promise<void> {
  const endMs = simStartMs + flags.days * DAY_MS;
  const next = {
    hour: simStartMs + HOUR_MS,
    peaks: simStartMs,
    prune: simStartMs + 6 * HOUR_MS,
    reconcile: simStartMs + DAY_MS,
    restart: simStartMs + flags.restartDays * DAY_MS,
  };
  const background = (what: string, promise: Promise<unknown>) => {
    const tracked = promise.catch((error: unknown) =>
      process.stderr.write(`soak: ${what} failed: ${error instanceof Error ? error.message : String(error)}\n`),
    );
    running.set(tracked, what);
    void tracked.finally(() => running.delete(tracked));
  };
  let busyHour = false;
  let busyPeaks = false;
  while (simNow() < endMs) {
    await sleep(100);
    const now = simNow();
    if (now >= next.restart) {
      next.restart += flags.restartDays * DAY_MS;
      await bot.restart();
    }
    if (now >= next.hour) {
      const hour = Math.round((next.hour - simStartMs) / HOUR_MS);
      next.hour += HOUR_MS;
      const taken = sample();
      if (hour % 24 === 0) {
        process.stdout.write(
          `day ${taken.sim_day.toFixed(1)} · ${Math.round(taken.real_s)} s · RSS ${mb(taken.rss_mb)} MB · heap ${mb(taken.heap_mb)} MB · db ${mb(taken.db_mb)} MB · outbox ${taken.rows_outbox} · backlog ${taken.outbox_backlog} · alerts ${taken.alerts_delivered} · files ${taken.open_files} · timers ${taken.timers}${running.size === 0 ? '' : ` · under way: ${[...running.values()].join(', ')}`}\n`,
        );
      }
      // The daily watchlists' schedule is cron on the machine's clock: asked each simulated hour instead.
      background('digests', bot.app.digests.runDue());
      if (!busyHour) {
        busyHour = true;
        background(
          'hour of use',
          hourOfUse(plan, soakChats, hour).finally(() => (busyHour = false)),
        );
      }
    }
    if (now >= next.peaks && !busyPeaks) {
      // The call peaks' 20 s timer is the machine's: run every 10 simulated minutes instead.
      next.peaks = now + 10 * 60_000;
      busyPeaks = true;
      background(
        'call peaks',
        bot.app.callPeaks.runOnce().finally(() => (busyPeaks = false)),
      );
    }
    if (now >= next.prune) {
      // Delivery's 6-hour prune timer is the machine's: the same prune, on the simulated clock.
      next.prune += 6 * HOUR_MS;
      background('prune', bot.app.store.outbox.prune(new Date(now - 7 * DAY_MS)));
    }
    if (now >= next.reconcile) {
      next.reconcile += DAY_MS;
      background('reconciliation', bot.app.reconcile.runNow());
    }
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--disk-cost') {
    // Any database of the bot's (SQLite): what its tables and indexes take, and an alert's share.
    process.stdout.write(`${diskCost(argv[1] ?? 'data/tokenwatch.db')}\n`);
    return;
  }
  const flags = parseFlags(argv);
  const speed = flags.speed ?? (flags.days * DAY_MS) / (flags.minutes * 60_000);
  const simStartMs = Date.UTC(2027, 0, 4, 0, 0, 0);
  const clock: SoakClock = { realStartMs: Date.now() + 3_000, simStartMs, speed };
  const simNow = () => simulatedNow(clock);
  const dayOf = (ms: number) => (ms - simStartMs) / DAY_MS;
  const work = mkdtempSync(join(tmpdir(), 'tokenwatch-soak-'));
  const dbPath = join(work, 'soak.db');
  const logPath = join(work, 'soak.log');
  process.stdout.write(
    `soak: ${flags.days} simulated days at ${Math.round(speed)}× (about ${Math.round((flags.days * DAY_MS) / speed / 60_000)} min), work folder ${work}\n`,
  );

  mkdirSync(flags.out, { recursive: true });
  const unregister = registerChatPlatform(soakPlatform);
  const market = await startMarket(clock, flags);
  const plan: LoadPlan = {
    chats: flags.chats,
    followsPerChat: Math.round(flags.follows / flags.chats),
    tokens: market.tokens,
    wallets: market.wallets,
  };
  soakChats.now = simNow;
  const config = loadConfig(
    {
      TMDS_BASE_URL: market.baseUrl,
      TMDS_WS_URL: market.wsUrl,
      TMDS_API_KEY: SOAK_KEY,
      DATABASE_PATH: dbPath,
      // The harness runs the reconciliation on the simulated clock (below); its cron is on the machine's.
      RECONCILE_CRON: '0 0 1 1 *',
      LOG_LEVEL: 'info',
    },
    { platforms: chatPlatformNames() },
  );
  const destination = pino.destination({ dest: logPath, sync: false, mkdir: true });
  const logger = createLogger('info', destination);
  const start = () =>
    startApp({
      config,
      logger,
      console: { input: new PassThrough(), output: new PassThrough(), interactive: false, outDir: work },
      env: { SOAK_CHATS: 'on' },
      now: () => new Date(simNow()),
    });

  while (simNow() < simStartMs) await sleep(50);
  let app: App = await start();
  const samples: Sample[] = [];
  let restarts = 0;
  const realStart = Date.now();
  const sample = () => {
    const taken = takeSample({
      simDay: dayOf(simNow()),
      realS: (Date.now() - realStart) / 1000,
      dbPath,
      logPath,
      alertsDelivered: soakChats.alertsSent,
      restarts,
    });
    samples.push(taken);
    // Written every simulated day too: a run cut short leaves its curves so far.
    if (samples.length % 24 === 0) writeFileSync(join(flags.out, 'soak.csv'), toCsv(samples));
    return taken;
  };
  sample();
  await setUp(plan, soakChats);
  process.stdout.write(
    `soak: set up ${flags.chats} chats by day ${dayOf(simNow()).toFixed(2)} (${soakChats.answers} answers, ${soakChats.failedAnswers} failed)\n`,
  );

  const running = new Map<Promise<unknown>, string>();
  const bot = {
    get app() {
      return app;
    },
    async restart() {
      await settled(running, 'restart');
      await app.stop();
      app = await start();
      restarts++;
    },
  };
  await drive({ flags, plan, simNow, simStartMs, running, bot, sample });
  await settled(running, 'end');
  sample();
  await app.stop();
  unregister();
  market.child.kill('SIGTERM');
  destination.flushSync();

  writeReport({ flags, samples, speed, realStart, market, restarts, dbPath });
  if (flags.keep) process.stdout.write(`kept: ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}

/**
 * Waits for the work under way, 30 real seconds at most: a restart does not wait for people's
 * commands for ever, and what was still running is named.
 */
async function settled(running: Map<Promise<unknown>, string>, at: string): Promise<void> {
  const all = Promise.all(running.keys()).then(() => true);
  const done = await Promise.race([all, sleep(30_000).then(() => false)]);
  if (!done) process.stderr.write(`soak: at the ${at}, still under way after 30 s: ${[...running.values()].join(', ')}\n`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
