/**
 * The console walk-through README.md shows (between its console-walkthrough markers, and the same
 * in docs/simulator.md), run line by line on `npm start` with nothing configured: each `> ` line
 * is typed, the line after it is the first line of its answer, and each `alert ▸ ` line is an
 * alert that must have arrived before the next line is typed. A line of the block that changes
 * meaning, or an answer that changes, fails here.
 *
 * The market's own surprises are slowed to a crawl (a speed factor, not a timer): the walk-through
 * shows what /simulate does, and must read the same however slow the machine.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startConsoleApp, type ConsoleApp } from './consoleApp';

const ALERT = 'alert ▸ ';

export function walkthroughOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const block = /<!-- console-walkthrough:start -->\n[\s\S]*?```console\n([\s\S]*?)```\n<!-- console-walkthrough:end -->/.exec(text)?.[1];
  if (block === undefined) throw new Error(`${path} has no console walk-through between its markers`);
  return block.trimEnd().split('\n');
}

const firstLine = (text: string): string => text.split('\n', 1)[0] ?? '';

let running: ConsoleApp | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

describe('the console walk-through', () => {
  const readme = walkthroughOf('README.md');

  it('is the same in README.md and docs/simulator.md, and short', () => {
    expect(walkthroughOf('docs/simulator.md')).toEqual(readme);
    expect(readme.length).toBeLessThan(25);
    expect(readme[0]).toBe('$ npm start');
  });

  it('answers every typed line as written, and every alert it shows arrives', { timeout: 90_000 }, async () => {
    running = await startConsoleApp();
    running.app.simulator?.driver.setSpeed(0.001);
    const console = running;
    let expectAnswer: string | null = null;
    let answer = '';
    for (const line of readme.slice(1)) {
      if (line.startsWith('> ')) {
        const before = console.app.watcher.status().processed;
        answer = await console.type(line.slice(2));
        expectAnswer = line;
        // A /track is watched once the token's streams are subscribed and their first frames read:
        // a change before that is the baseline, not news (as it would be for a person typing fast).
        if (line.startsWith('> /track ')) {
          const sim = console.app.simulator;
          await vi.waitFor(
            () => {
              expect(sim?.streams.subscriptionCount('token-feed')).toBeGreaterThan(0);
              expect(sim?.streams.subscriptionCount('holders-live')).toBeGreaterThan(0);
              const status = console.app.watcher.status();
              expect(status.processed).toBeGreaterThan(before);
              expect(status.queued).toBe(0);
            },
            { timeout: 20_000, interval: 50 },
          );
        }
      } else if (line.startsWith(ALERT)) {
        await vi.waitFor(() => expect(console.alerts().map(firstLine)).toContain(line), { timeout: 20_000, interval: 50 });
      } else {
        expect(firstLine(answer), `the answer to ${expectAnswer ?? '(nothing typed)'}`).toBe(line);
      }
    }
  });
});
