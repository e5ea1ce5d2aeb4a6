/**
 * The roles a process was given (TOKENWATCH_ROLES) that have nothing to do in it: a chat platform's
 * role without that platform's token, or a sender with no chat platform configured at all. Such a
 * process starts and runs without error yet never answers or sends, which reads as a silent bot:
 * it is said in one warning line at start, naming what is missing. Pure: settings in, the line out.
 */
import type { Config } from '../config';
import type { Role } from '../model/roles';

export interface IdleRoles {
  /** The roles with nothing to do, in TOKENWATCH_ROLES's order. */
  roles: Role[];
  /** The warning line, naming each idle role and the setting it lacks. */
  line: string;
}

/** Null when every role named has work, and always for one process running every role (it falls back to the console). */
export function idleRoles(config: Pick<Config, 'roles' | 'discord' | 'telegram'>): IdleRoles | null {
  if (!config.roles.clustered) return null;
  const lacking: Array<[Role, string]> = [];
  if (config.roles.set.has('discord') && config.discord === null) lacking.push(['discord', 'no DISCORD_TOKEN']);
  if (config.roles.set.has('telegram') && config.telegram === null) lacking.push(['telegram', 'no TELEGRAM_BOT_TOKEN']);
  if (config.roles.set.has('sender') && config.discord === null && config.telegram === null)
    lacking.push(['sender', 'no chat platform: neither DISCORD_TOKEN nor TELEGRAM_BOT_TOKEN']);
  if (lacking.length === 0) return null;
  const named = lacking.map(([role, missing]) => `${role} (${missing})`).join(', ');
  return { roles: lacking.map(([role]) => role), line: `TOKENWATCH_ROLES names roles with nothing to do in this process: ${named}` };
}
