import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three projects in one run, sharing one pool of workers: the conformance suite, whose global setup
 * starts the simulator once for all its files (and only when one of them is queued); the store and
 * the alerts end to end, whose global setup starts a throwaway PostgreSQL once (both stores run
 * their contract suites; without PostgreSQL, SQLite's half runs alone); and the rest.
 */
const STORE_FILES = [
  'test/store/**/*.test.ts',
  'test/e2e/alerts.test.ts',
  'test/e2e/targets.test.ts',
  'test/e2e/digest.test.ts',
  'test/e2e/postgres*.test.ts',
  'test/e2e/cluster*.test.ts',
  'test/cluster/**/*.test.ts',
];
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Files share their worker's loaded modules instead of each importing the whole bot anew:
    // that import was a third of the suite's time. Tests keep no state in modules they share
    // (each builds its own servers, stores and clients), and a test that changes a global puts it back.
    isolate: false,
    // Many tests wait on sockets and child processes; more workers than cores keeps the cores busy.
    // A number, since vitest caps a percentage at the number of cores.
    maxWorkers: Math.ceil(availableParallelism() * 1.5),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // The bot's tests and those of the workspace packages (packages/tmds-simulator/: the simulator).
          include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/conformance/**', ...STORE_FILES],
        },
      },
      {
        extends: true,
        test: {
          name: 'store',
          include: STORE_FILES,
          globalSetup: ['test/support/postgres/globalSetup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          globalSetup: ['test/conformance/support/globalSetup.ts'],
          // Starting the simulator through npm and tsx can be slow on a loaded machine.
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
