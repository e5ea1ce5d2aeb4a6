/**
 * The floors of src/, read by the import-graph test (test/importGraph.test.ts), which holds every
 * folder to import only from its floor or below, and by the house report (scripts/house.ts).
 * docs/layout.md says why each floor is where it is.
 */

/** The floors of src/, lowest first: a folder (`name/`) or a root file imports only from its floor or below. */
export const FLOORS: readonly (readonly string[])[] = [
  // Shared shapes and pure helpers: they import nothing of the project.
  ['model/', 'text/', 'duration.ts', 'usage.ts', 'heapLimit.ts'],
  ['log.ts', 'urlCredentials.ts'],
  // The two outside systems: the market data service (client, streams, schemas) and the database.
  // Neither knows the other (held below) nor anything of the bot's settings.
  ['market/', 'store/', 'openFiles.ts'],
  // Charts draw the market's candles; they read no settings. (The simulator is no folder of src/: it is
  // the package tmds-simulator, packages/tmds-simulator/, held apart by test/importGraph.test.ts.)
  ['charts/'],
  // Settings name the market's endpoints and limits and the simulator's wire styles (from tmds-simulator).
  ['config.ts', 'plainAddresses.ts'],
  ['cards/'],
  // What an alert is (kinds, detectors, fan-out, its card), and the look-ups.
  ['alerts/', 'query/'],
  // Feeding inputs to the alerts, the follow commands' services, the outbox's sending.
  ['watch/', 'follows/', 'delivery/'],
  // The reconciliation, the commands, and this process's share of a bot of several (leases over the store).
  ['jobs/', 'dispatch/', 'cluster/'],
  ['chats/'],
  // The operators' HTTP server, metrics and readiness: they read the running parts, chats included.
  ['ops/'],
  // The composition root and the parts it is assembled from (src/app/: one start function each, and their lifecycle).
  ['app.ts', 'app/'],
  // The processes: the bot, and the command-line programs. Each runs on import, so nothing imports them (held below).
  ['main.ts', 'cli/'],
];
