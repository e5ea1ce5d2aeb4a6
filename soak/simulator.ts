/**
 * The soak's market, in a process of its own so that the bot's memory, files and timers are the
 * bot's alone: the simulator on the soak's clock (its `now` option, read by the market and the rate
 * limit), its driver moved by hand to the clock's time every 250 ms (the driver's own timer counts
 * real ticks and would fall behind a busy machine). Prints one JSON line: the addresses to reach it,
 * its tokens and the wallets to follow (the shared wallets, then holders, up to --wallets).
 *
 *   node --import tsx soak/simulator.ts REAL_START SIM_START SPEED SEED WALLETS
 */
import { startSimulator } from 'tmds-simulator';
import { SOAK_KEY, SOAK_PACE, simulatedNow, type SoakClock } from './clock';

async function main(): Promise<void> {
  const [realStart, simStart, speed, seed, wallets] = process.argv.slice(2).map(Number);
  const clock: SoakClock = { realStartMs: realStart ?? Date.now(), simStartMs: simStart ?? Date.now(), speed: speed ?? 1 };
  const now = () => Math.floor(simulatedNow(clock));
  if (!Number.isFinite(now())) throw new Error(`bad clock ${process.argv.slice(2).join(' ')}`);
  const sim = await startSimulator({ apiKey: SOAK_KEY, port: 0, seed: seed ?? 42, pace: SOAK_PACE, now });
  // The driver's own timer is all but stopped; the clock moves it.
  sim.driver.setSpeed(1e-9);
  const startedAt = now();
  const parent = process.ppid;
  const move = setInterval(() => {
    // The soak gone (killed, crashed): this market goes too.
    if (process.ppid !== parent) process.exit(0);
    const due = now() - startedAt - sim.driver.elapsedMs();
    try {
      if (due > 0) sim.driver.advance(due);
    } catch (error) {
      process.stderr.write(`soak market: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }, 250);
  const tokens = sim.market.tokenAddresses();
  const followed = new Set(sim.market.wallets());
  for (const token of tokens) {
    for (const holder of sim.market.holders(token) ?? []) {
      if (followed.size >= (wallets ?? 200)) break;
      followed.add(holder.address);
    }
  }
  process.stdout.write(
    `${JSON.stringify({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, tokens, wallets: [...followed].slice(0, wallets ?? 200) })}\n`,
  );
  const stop = () => {
    clearInterval(move);
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`soak simulator failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
