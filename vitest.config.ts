import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects in one run, sharing one pool of workers: the conformance suite, whose global setup
 * starts the simulator once for all its files (and only when one of them is queued), and the rest.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/conformance/**'],
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
