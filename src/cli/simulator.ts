/**
 * `npm run simulator -- [flags]`: the command line of the tmds-simulator package (packages/tmds-simulator/,
 * also `npx tmds-simulator`), under the name the bot's repository gives it. It serves the simulated
 * Token Market Data Service until SIGINT or SIGTERM, or prints the market's listing with --list; the
 * first two lines on stdout are the settings the bot needs (TMDS_BASE_URL, TMDS_WS_URL).
 */
import { runSimulatorCli } from 'tmds-simulator/cli';

runSimulatorCli(process.argv.slice(2), { command: 'npm run simulator --', name: 'simulator' });
