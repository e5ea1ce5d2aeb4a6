/**
 * Start-up refusals as an operator meets them: `npm start` as a separate process, configured only
 * through environment variables, stopping with one line on standard error and exit code 2.
 */
import { describe, expect, it } from 'vitest';
import { startSimulator } from 'tmds-simulator';
import { runToEnd, tsNode } from './support/processes';

const TELEGRAM_TOKEN = '123456789:AAstartup-refusal_token';

describe('npm start refuses, in one line', () => {
  it('a chat token without TMDS_BASE_URL, naming the service address and TMDS_BASE_URL=simulator', async () => {
    // The Bot API address is nowhere: a bot that started anyway would fail later, and otherwise.
    const run = await runToEnd(...tsNode('src/main.ts'), {
      input: '',
      env: { TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, TELEGRAM_API_ROOT: 'http://127.0.0.1:9' },
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      "Invalid configuration: TMDS_BASE_URL is required with DISCORD_TOKEN or TELEGRAM_BOT_TOKEN: set it to the service's address (with TMDS_API_KEY), or TMDS_BASE_URL=simulator to run the chats on simulated data on purpose",
    ]);
    expect(run.stdout).toBe('');
  }, 60_000);

  it('an API key the service refuses, before the console chat or the database starts', async () => {
    const sim = await startSimulator({ apiKey: 'the-right-key-5d1e', port: 0, seed: 42 });
    try {
      const run = await runToEnd(...tsNode('src/main.ts'), {
        input: '/help\n',
        env: { TMDS_BASE_URL: sim.baseUrl, TMDS_API_KEY: 'a-wrong-key-8c2f' },
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        `The market data service at ${sim.baseUrl} refused TMDS_API_KEY (HTTP 401): set the key the service issued`,
      ]);
      expect(run.stdout).toBe('');
      expect(sim.stats.requests().map((request) => request.endpoint)).toEqual(['token-data']);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
