/**
 * A new user's first minutes, as the README tells them: `npm start` with nothing configured (the
 * built-in simulator), `/track token ADDR all` with ADDR from the banner, and an alert arrives,
 * with no /simulate and no second process: the market moves by itself. The simulator's clock runs
 * 10 times faster here, so its 2 minutes take 12 seconds; the shipped pace itself is held to 2
 * minutes on a simulated clock in packages/tmds-simulator/test/pace.test.ts. Each real second the
 * bot takes to answer and to open the token's streams is 10 simulated ones: faster still, a loaded
 * machine's slow start would let the market's first surprise pass before the streams are up.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startConsoleApp, type ConsoleApp } from './consoleApp';

const SPEED = 10;
let running: ConsoleApp | null = null;

afterEach(async () => {
  await running?.stop();
  running = null;
});

/**
 * On both protocols: the built-in simulator's default (the spec's reading), and the vendor's
 * (SIMULATOR_PROTOCOL=vendor), where the token is followed on trades-live, chart-live and
 * holders-live and its risk read over REST (every second here, so the polls keep the simulator's pace).
 */
describe.each([
  ['spec', {}],
  ['vendor', { SIMULATOR_PROTOCOL: 'vendor', TOKEN_POLL_INTERVAL: '1s' }],
] as const)('the console as a new user (%s protocol)', (protocol, env) => {
  it('npm start, /track token ADDR all with ADDR from the banner: an alert arrives by itself', { timeout: 60_000 }, async () => {
    running = await startConsoleApp(env);
    const { app, banner } = running;
    expect(banner).toMatch(/alert arrives within 2 minutes/);
    const address = /\/track token ([1-9A-HJ-NP-Za-km-z]{32,44})/.exec(banner)?.[1];
    if (address === undefined) throw new Error(`no address to track in the banner: ${banner}`);
    const simulator = app.simulator;
    if (simulator === null) throw new Error('npm start with nothing configured must run the built-in simulator');
    simulator.driver.setSpeed(SPEED);

    const answer = await running.type(`/track token ${address} all`);
    expect(answer).not.toMatch(/\[ERROR\]/);
    const trackedAt = simulator.driver.elapsedMs();
    const symbol = simulator.market.token(address)?.symbol ?? '';
    // The console tracks nothing else, so any alert is the tracked token's; it names the token.
    await vi.waitFor(() => expect(running?.alerts().length).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
    const alert = running.alerts()[0] ?? '';
    // A real alert about the tracked token, within the simulator's 2 minutes of the /track.
    expect(alert).toContain(symbol);
    expect(alert).toMatch(/simulated data/);
    expect(simulator.driver.elapsedMs() - trackedAt).toBeLessThan(120_000);
    expect(app.streams.status().protocol).toBe(protocol);
  });
});
