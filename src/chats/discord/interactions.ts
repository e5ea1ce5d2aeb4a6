/**
 * Interactions: slash commands, button clicks and autocomplete, each answered within Discord's
 * three seconds. A command the pipeline marks slow is deferred at once; any other answer not ready
 * after `deferAfterMs` (about two seconds) is deferred then, so a slow service never shows
 * "The application did not respond". Errors and refusals are shown only to the person who asked
 * (ephemeral), with the pipeline's short message and error id; never a stack trace.
 *
 * Commands and button presses go through the inbox (src/chats/inbox.ts) to their channel's queue:
 * one at a time per channel, every channel beside the others, so a channel that floods the bot delays only
 * itself. The three seconds count from the interaction's arrival, not from its turn, so one
 * waiting behind its channel's others is deferred in time. Past 20 waiting, an interaction is
 * skipped and answered ephemerally, "Too many commands at once; some were skipped.", a few such
 * answers at a time (skippedReplies.ts) so that they never crowd out another channel's.
 */
import {
  ApplicationCommandOptionType,
  InteractionContextType,
  MessageFlags,
  type CommandInteractionOption,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type InteractionEditReplyOptions,
  type InteractionReplyOptions,
  type InteractionUpdateOptions,
  type RepliableInteraction,
} from 'discord.js';
import type { ChatRef } from '../../model/chat';
import { type ChatReply } from '../../dispatch/reply';
import { SKIPPED_NOTICE, type ChatInbox } from '../inbox';
import type { AnyCommand } from '../../dispatch/command';
import type { CommandCaller } from '../../dispatch/dispatcher';
import type { RawValue } from '../../dispatch/parseArgs';
import type { Logger } from '../../log';
import type { Store } from '../../store/store';
import { cleanText } from '../../text/sanitize';
import { renderCardMessage } from './embed';
import { AUTOCOMPLETE_CHOICES_MAX, CHOICE_TEXT_MAX } from './limits';
import { isManagerPermissions } from './permissions';
import { DEFAULT_SKIPPED_REPLIES, SkippedReplies, type SkippedRepliesOptions } from './skippedReplies';
import { formOption } from './slashCommands';

export interface InteractionDeps {
  store: Pick<Store, 'follows'>;
  logger: Logger;
  /** An answer not ready after this long is deferred (Discord waits 3 s for the first answer). */
  deferAfterMs: number;
  /** Each channel's commands and presses, one at a time through its queue, at most 20 waiting. */
  inbox: ChatInbox;
  /** How the answers to skipped interactions are spread out. */
  skippedReplies?: SkippedRepliesOptions;
}

const NO_MENTIONS = { parse: [] as [] };

/**
 * The chat of an interaction: its channel, scoped to its server; or the direct message between a
 * person and the bot, a chat of its own with no server. Null anywhere else (a group DM).
 */
export function chatOf(interaction: {
  guildId: string | null;
  channelId: string | null;
  context?: InteractionContextType | null;
}): ChatRef | null {
  if (interaction.channelId === null) return null;
  if (interaction.guildId !== null)
    return { platform: 'discord', chatId: interaction.channelId, threadId: null, scopeId: interaction.guildId };
  return interaction.context === InteractionContextType.BotDM
    ? { platform: 'discord', chatId: interaction.channelId, threadId: null, scopeId: null }
    : null;
}

function callerOf(interaction: RepliableInteraction | AutocompleteInteraction, chat: ChatRef): CommandCaller {
  return {
    chat,
    userId: interaction.user.id,
    // A slash /token is a post that may make a call: its author's name as the server shows it (text,
    // never a mention). No message of theirs to reply to.
    userName:
      (interaction.member !== null && 'nick' in interaction.member ? interaction.member.nick : null) ??
      interaction.user.globalName ??
      interaction.user.username,
    // In a server, Discord sends the member's permissions in the channel with every interaction (no
    // request needed); a direct message is the person's own, and they manage it.
    isManager: async () => chat.scopeId === null || isManagerPermissions(interaction.memberPermissions?.bitfield ?? null),
  };
}

function replyOptions(reply: ChatReply): InteractionReplyOptions & InteractionEditReplyOptions {
  const message = renderCardMessage(reply.card, reply.buttons);
  return {
    embeds: message.embeds,
    components: message.components,
    files: message.files.map((file) => ({
      attachment: file.data,
      name: file.name,
      ...(file.description === undefined ? {} : { description: file.description }),
    })),
    allowedMentions: NO_MENTIONS,
  };
}

/**
 * Runs `work`, deferring the interaction with `defer` if it is not done within `afterMs`, or at
 * once when `now` is set. Resolves with the work's result and whether a defer went out.
 */
async function withDeadline<T>(
  work: () => Promise<T>,
  defer: () => Promise<unknown>,
  afterMs: number,
  now: boolean,
): Promise<{ value: T; deferred: boolean }> {
  let deferring: Promise<unknown> | null = now ? defer() : null;
  const timer = now
    ? null
    : setTimeout(() => {
        deferring = defer();
      }, afterMs);
  try {
    const value = await work();
    return { value, deferred: deferring !== null };
  } finally {
    if (timer !== null) clearTimeout(timer);
    // The defer must have reached Discord before the answer that follows it.
    if (deferring !== null) await deferring;
  }
}

/**
 * Slash command options as the pipeline reads them: by name, strings, numbers and booleans. A
 * subcommand (`/track wallet …`) is the value of the command's form option (`kind: 'wallet'`).
 */
function optionValues(interaction: ChatInputCommandInteraction, command: AnyCommand | undefined): Record<string, RawValue> {
  const values: Record<string, RawValue> = {};
  const read = (options: readonly CommandInteractionOption[]) => {
    for (const option of options) {
      if (option.type === ApplicationCommandOptionType.Subcommand) {
        const form = command === undefined ? null : formOption(command);
        if (form !== null) values[form.name] = option.name;
        read(option.options ?? []);
        continue;
      }
      const value = option.value;
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') values[option.name] = value;
    }
  };
  read(interaction.options.data);
  return values;
}

export class InteractionHandler {
  private readonly skippedReplies: SkippedReplies;

  constructor(private readonly deps: InteractionDeps) {
    this.skippedReplies = new SkippedReplies(deps.skippedReplies ?? DEFAULT_SKIPPED_REPLIES);
  }

  private async notInServer(interaction: RepliableInteraction): Promise<void> {
    await interaction.reply({
      content: 'TokenWatch answers in servers and in a direct message with it.',
      flags: MessageFlags.Ephemeral,
      allowedMentions: NO_MENTIONS,
    });
  }

  /**
   * Discord shows "The application did not respond" to an interaction left unanswered, so a
   * skipped one is answered too: ephemerally, to the person alone, never in the channel. One that
   * Discord no longer takes (its turn came late in a flood) is only a debug line.
   */
  private async skipped(interaction: RepliableInteraction): Promise<void> {
    try {
      await this.skippedReplies.add(async () => {
        await interaction.reply({ content: SKIPPED_NOTICE, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
      }, Date.now());
    } catch (error) {
      this.deps.logger.debug({ err: error, channel: interaction.channelId }, 'discord skipped interaction not answered');
    }
  }

  async command(interaction: ChatInputCommandInteraction): Promise<void> {
    const chat = chatOf(interaction);
    if (chat === null) return this.notInServer(interaction);
    const { inbox, deferAfterMs } = this.deps;
    const { dispatcher } = inbox;
    const name = interaction.commandName;
    const values = optionValues(
      interaction,
      dispatcher.commands.find((c) => c.name === name),
    );
    const offer = inbox.command(callerOf(interaction, chat), name, { kind: 'options', values });
    if (!offer.taken) return this.skipped(interaction);
    // The deadline counts from now, the interaction's arrival, whether or not its turn has come.
    const { value: reply, deferred } = await withDeadline(
      () => offer.done,
      () => interaction.deferReply(),
      deferAfterMs,
      dispatcher.isSlow(name),
    );
    await this.answer(interaction, reply, deferred);
  }

  /** The answer to a command: a reply, or the edit of a deferred one. */
  private async answer(interaction: RepliableInteraction, reply: ChatReply, deferred: boolean): Promise<void> {
    const options = replyOptions(reply);
    if (!deferred) {
      await interaction.reply({ ...options, ...(reply.ephemeral ? { flags: MessageFlags.Ephemeral } : {}) });
      return;
    }
    if (!reply.ephemeral) {
      await interaction.editReply(options);
      return;
    }
    // A deferred answer is public; an error is not: the placeholder goes, the error follows privately.
    await interaction.deleteReply();
    await interaction.followUp({ ...options, flags: MessageFlags.Ephemeral });
  }

  async button(interaction: ButtonInteraction): Promise<void> {
    const chat = chatOf(interaction);
    if (chat === null) return this.notInServer(interaction);
    const { inbox, deferAfterMs } = this.deps;
    const offer = inbox.press(callerOf(interaction, chat), interaction.customId);
    if (!offer.taken) return this.skipped(interaction);
    const { value: reply, deferred } = await withDeadline(
      () => offer.done,
      // Whether the press refreshes the card is known only once it ran: a deferred update leaves
      // both ways open (edit the card, or follow up with a new message).
      () => interaction.deferUpdate(),
      deferAfterMs,
      false,
    );
    const options = replyOptions(reply);
    if (reply.refresh) {
      // Refresh edits the card it was pressed on; the old picture goes with the old card.
      const update: InteractionUpdateOptions & InteractionEditReplyOptions = { ...options, attachments: [] };
      if (deferred) await interaction.editReply(update);
      else await interaction.update(update);
      return;
    }
    const flags = reply.ephemeral ? { flags: MessageFlags.Ephemeral as const } : {};
    if (deferred) await interaction.followUp({ ...options, ...flags });
    else await interaction.reply({ ...options, ...flags });
  }

  /** Addresses the channel follows, matching what was typed so far, for options that take one. */
  async autocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const chat = chatOf(interaction);
    if (chat === null) {
      await interaction.respond([]);
      return;
    }
    const typed = String(interaction.options.getFocused()).trim().toLowerCase();
    let choices: Array<{ name: string; value: string }> = [];
    try {
      const { follows } = await this.deps.store.follows.list(chat, { offset: 0, limit: 100 });
      choices = follows
        .filter(
          (follow) => typed === '' || follow.address.toLowerCase().includes(typed) || (follow.label ?? '').toLowerCase().includes(typed),
        )
        .slice(0, AUTOCOMPLETE_CHOICES_MAX)
        .map((follow) => {
          const label = cleanText(follow.label, 40);
          return {
            name: cleanText(`${label === '' ? follow.kind : label} · ${follow.address}`, CHOICE_TEXT_MAX),
            value: follow.address.slice(0, CHOICE_TEXT_MAX),
          };
        });
    } catch (error) {
      this.deps.logger.warn({ err: error, chat: chat.chatId }, 'autocomplete: follows not read');
    }
    await interaction.respond(choices);
  }
}
