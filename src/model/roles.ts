/**
 * The parts of the bot one process runs (TOKENWATCH_ROLES): a gateway to each chat platform, the
 * watcher (streams, detectors, reconciliation) and the sender (the outbox drained to the chats).
 * A platform's role is its name, as its entry in src/chats/platforms.ts gives it; the watcher and
 * the sender are the bot's own. One process runs them all by default; several processes over one
 * PostgreSQL split them (src/cluster/). A leaf module: config, the cluster and the app read it.
 */

/** The roles that are parts of the bot rather than a chat platform's gateway. */
export const PART_ROLES = ['watcher', 'sender'] as const;

/** A chat platform's name (its gateway), or one of PART_ROLES. */
export type Role = string;

/** Every role of a bot with these chat platforms: each platform's gateway, then the parts. */
export function rolesOf(platforms: readonly string[]): readonly Role[] {
  return [...platforms, ...PART_ROLES];
}
