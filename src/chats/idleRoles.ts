/**
 * The roles a process was given (TOKENWATCH_ROLES) that have nothing to do in it: a chat platform's
 * role without that platform's token, or a sender with no chat platform configured at all. Such a
 * process starts and runs without error yet never answers or sends, which reads as a silent bot:
 * it is said in one warning line at start, naming what is missing. Settings in, the line out; the
 * platforms and their tokens are the registry's (src/chats/platforms.ts).
 */
import type { Config } from '../config';
import type { Role } from '../model/roles';
import type { PlatformEnv } from './platform';
import { chatPlatforms } from './platforms';

export interface IdleRoles {
  /** The roles with nothing to do, in TOKENWATCH_ROLES's order. */
  roles: Role[];
  /** The warning line, naming each idle role and the setting it lacks. */
  line: string;
}

/** "A", "neither A nor B", "none of A, B or C": the tokens of which none is set. */
function noneOf(tokens: readonly string[]): string {
  if (tokens.length <= 1) return tokens[0] ?? 'no platform token';
  if (tokens.length === 2) return `neither ${tokens[0]} nor ${tokens[1]}`;
  return `none of ${tokens.slice(0, -1).join(', ')} or ${tokens.at(-1)}`;
}

/** Null when every role named has work, and always for one process running every role (it falls back to the console). */
export function idleRoles(config: Config, env: PlatformEnv = process.env): IdleRoles | null {
  if (!config.roles.clustered) return null;
  const platforms = chatPlatforms();
  const unset = platforms.filter((platform) => platform.settings.read(config, env) === null);
  const lacking: Array<[Role, string]> = unset
    .filter((platform) => config.roles.set.has(platform.name))
    .map((platform) => [platform.name, `no ${platform.settings.token}`]);
  if (config.roles.set.has('sender') && unset.length === platforms.length)
    lacking.push(['sender', `no chat platform: ${noneOf(platforms.map((platform) => platform.settings.token))}`]);
  if (lacking.length === 0) return null;
  const named = lacking.map(([role, missing]) => `${role} (${missing})`).join(', ');
  return { roles: lacking.map(([role]) => role), line: `TOKENWATCH_ROLES names roles with nothing to do in this process: ${named}` };
}
