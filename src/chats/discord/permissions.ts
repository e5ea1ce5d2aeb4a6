/**
 * Who manages a server's follows: a member with Manage Server or Manage Channels (Administrator
 * implies both). Read from the permissions Discord computes for the member in the channel of the
 * interaction, which already include the channel's overwrites.
 */
import { PermissionFlagsBits } from 'discord.js';

const MANAGER_BITS = PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageChannels | PermissionFlagsBits.Administrator;

/** `permissions` as Discord sends it (a decimal bitfield), or null when there is none (a DM). */
export function isManagerPermissions(permissions: bigint | null): boolean {
  return permissions !== null && (permissions & MANAGER_BITS) !== 0n;
}
