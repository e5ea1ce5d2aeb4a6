/**
 * Start-up: settings, a logger, the bot (src/app.ts), and a clean stop on SIGTERM or SIGINT or at
 * the end of the console's input. A setting, a database or an API key that cannot be used stops
 * start-up with one line saying why.
 *
 * From the logger on, everything the process writes to standard error is a JSON log line through
 * it (secrets scrubbed): process warnings, and an error nothing caught, which stops the bot.
 */
import { startApp } from './app';
import { logDestination, logPlace, logPlaceLine, runsConsoleChat } from './chats/console/logDestination';
import { ConfigError, loadDotEnv, type Config } from './config';
import { createLogger, logProcessWarnings, scrubSecrets } from './log';
import { ServiceKeyRefusedError } from './market/serviceCheck';
import { OpsServerError } from './ops/httpServer';
import { StoreOpenError } from './store/sqliteStore';
import { loadSettings } from './chats/platforms';

function readConfig(): Config {
  try {
    loadDotEnv();
    // The general settings and every platform's section (the built-in ones and any registered), each
    // checked now: a wrong one stops start-up with its one line before anything starts.
    return loadSettings(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  // Logs go to standard error so that the console chat's answers on standard output stay clean, and
  // to a file under data/ when that standard error is the console chat's terminal (logDestination.ts).
  const logs = logPlace({ consoleChat: runsConsoleChat(config), stderrIsTerminal: process.stderr.isTTY === true });
  const logger = createLogger(config.logLevel, logDestination(logs, config.logLevel));
  logProcessWarnings(logger);
  // Node would print these as plain stack traces; the line is written before the exit.
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception; stopping');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled rejection; stopping');
    process.exit(1);
  });
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;

  let app;
  try {
    app = await startApp({
      config,
      logger,
      console: { input: process.stdin, output: process.stdout, interactive, outDir: 'data/out', logs: logPlaceLine(logs, config.logLevel) },
    });
  } catch (error) {
    if (error instanceof StoreOpenError || error instanceof ServiceKeyRefusedError || error instanceof OpsServerError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  let stopping: Promise<void> | null = null;
  const stop = (code: number): void => {
    // A second signal while stopping leaves at once; the first waits at most SHUTDOWN_TIMEOUT for the work under way (app.ts).
    if (stopping !== null) process.exit(code);
    stopping = app
      .stop()
      .catch((error: unknown) => logger.error({ err: error }, 'shutdown was not clean'))
      .then(() => process.exit(code));
  };
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  await app.ended;
  stop(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`TokenWatch stopped: ${scrubSecrets(error instanceof Error ? error.message : String(error))}\n`);
  process.exit(1);
});
