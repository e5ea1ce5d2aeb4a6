/**
 * The bot as `npm start` runs it with nothing configured (the built-in simulator and the console
 * chat), in-process: settings read as main.ts reads them, the console's input and output as
 * streams a test types into and reads. Each write to the output is one answer or one alert
 * (chat.ts and alertSender.ts write each in one piece), so they are told apart by their start.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { vi } from 'vitest';
import { startApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';

export interface ConsoleApp {
  app: App;
  /** The lines printed before the first command. */
  banner: string;
  /** Types a line and resolves with its answer, as printed. */
  type(line: string): Promise<string>;
  /** Every alert printed so far. */
  alerts(): string[];
  stop(): Promise<void>;
}

const ALERT = 'alert ▸ ';

export async function startConsoleApp(env: Record<string, string> = {}): Promise<ConsoleApp> {
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-console-app-'));
  const input = new PassThrough();
  const output = new PassThrough();
  const writes: string[] = [];
  output.on('data', (chunk: Buffer) => writes.push(chunk.toString()));
  const config = loadConfig({ DATABASE_PATH: join(dir, 'tokenwatch.db'), ...env });
  const app = await startApp({ config, logger: silentLogger, console: { input, output, interactive: false, outDir: dir } });
  const answers = () => writes.slice(1).filter((text) => !text.startsWith(ALERT) && !text.startsWith('Logs'));
  await vi.waitFor(
    () => {
      if (writes.length === 0) throw new Error('no banner yet');
    },
    { timeout: 15_000, interval: 20 },
  );
  return {
    app,
    banner: writes[0] ?? '',
    async type(line) {
      const before = answers().length;
      input.write(`${line}\n`);
      await vi.waitFor(
        () => {
          if (answers().length <= before) throw new Error(`no answer yet to ${line}`);
        },
        { timeout: 15_000, interval: 20 },
      );
      return answers()[before] ?? '';
    },
    alerts: () => writes.filter((text) => text.startsWith(ALERT)),
    async stop() {
      input.end();
      await app.stop();
    },
  };
}
