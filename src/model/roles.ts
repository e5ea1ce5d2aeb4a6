/**
 * The parts of the bot one process runs (TOKENWATCH_ROLES): a gateway to each chat platform, the
 * watcher (streams, detectors, reconciliation) and the sender (the outbox drained to the chats).
 * One process runs them all by default; several processes over one PostgreSQL split them
 * (src/cluster/). A leaf module: config, the cluster and the app read it.
 */
export const ROLES = ['discord', 'telegram', 'watcher', 'sender'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(text: string): text is Role {
  return (ROLES as readonly string[]).includes(text);
}

/** Every role: one process, as a bot runs by default. */
export const ALL_ROLES: ReadonlySet<Role> = new Set(ROLES);
