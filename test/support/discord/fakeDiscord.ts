/**
 * A small local Discord for tests: the gateway (hello, identify, ready, guild create, heartbeats,
 * interaction dispatch, RESUME of a session whose socket went away without closing it) over
 * `ws`, sharded as Discord shards (each server's events on shard `(guild_id >> 22) % shard_count`,
 * IDENTIFYs checked against `max_concurrency`, 4011 for a shard past a server count), and the REST
 * routes the bot uses over `node:http`: /gateway/bot, the bot's user and application, application
 * commands, interaction callbacks, webhook edits and follow-ups (JSON or multipart), and channel
 * messages with embeds and files (a repeated `nonce` with `enforce_nonce` answered with the first
 * message, as Discord does). Every request is recorded for assertions, a channel can be made to
 * answer 403 or 404 as Discord does, and the real discord.js talks to it unchanged
 * (`rest: { api: fake.restApi }`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { WebSocketServer, type WebSocket } from 'ws';

export interface RecordedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface RecordedRequest {
  method: string;
  /** Path after /api/v10, decoded (`@original`, not `%40original`). */
  path: string;
  query: URLSearchParams;
  /** The JSON body, or a multipart body's payload_json. */
  body: unknown;
  files: RecordedFile[];
  authorization: string | undefined;
  /** Answer status the fake gave. */
  status: number;
}

export interface FakeChannel {
  id: string;
  name: string;
  /** 0: text channel. */
  type?: number;
}

export interface FakeGuild {
  id: string;
  name: string;
  channels: FakeChannel[];
}

export interface FakeDiscordOptions {
  appId: string;
  botId?: string;
  token: string;
  guilds: FakeGuild[];
  /** The shard count /gateway/bot recommends (default 1). */
  shards?: number;
  /** session_start_limit.max_concurrency (default 1): IDENTIFYs in one bucket (shard id % this) must be 5 s apart. */
  maxConcurrency?: number;
  /** A shard that would carry more servers than this is closed with 4011 at its IDENTIFY, as Discord does past 2,500. */
  maxGuildsPerShard?: number;
  /** The gateway address /gateway/bot gives (default: this fake's own); another one makes a gateway that cannot be reached. */
  gatewayUrl?: string;
}

/** One IDENTIFY as the fake saw it: which shard of how many, and when (Date.now()). */
export interface IdentifySeen {
  shard: number;
  count: number;
  at: number;
}

/** Discord's rule: a server's events travel on shard (guild_id >> 22) % shard_count. */
export function guildShard(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

let shardedSnowflake = 300_000_000_000n;
/** A fresh snowflake whose server lands on `shard` of `count`. */
export function snowflakeInShard(shard: number, count: number): string {
  shardedSnowflake += BigInt(count);
  const timestamp = shardedSnowflake - (shardedSnowflake % BigInt(count)) + BigInt(shard);
  return ((timestamp << 22n) + 1n).toString();
}

/** One RESUME as the fake saw it: the shard, the session it names, and whether it was taken up. */
export interface ResumeSeen {
  shard: number;
  sessionId: string;
  sequence: number;
  resumed: boolean;
}

/** A gateway session the fake opened at an IDENTIFY; a close by the bot (1000, 1001) ends it. */
interface FakeSession {
  shard: { id: number; count: number };
  open: boolean;
}

/** Discord spaces the IDENTIFYs of one bucket by 5 s; a little less is allowed for clocks read at both ends. */
const IDENTIFY_SPACING_MS = 4_900;

/** A message as the fake keeps it: what the bot posted, sent as a reply or edited later. */
export interface FakeMessage {
  id: string;
  channelId: string;
  /** The interaction token it answers, for webhook edits of `@original`. */
  interactionToken: string | null;
  ephemeral: boolean;
  /** The latest body (embeds, components, allowed_mentions, content, flags). */
  body: Record<string, unknown>;
  files: RecordedFile[];
  edits: number;
}

export interface InteractionOptions {
  guildId: string;
  channelId: string;
  userId?: string;
  /** The member's permissions in the channel, as Discord computes them (a bitfield). */
  permissions?: bigint;
}

/** A direct message with the bot: its DM channel and the person in it. */
export interface DmOptions {
  channelId: string;
  userId?: string;
}

export interface SentInteraction {
  id: string;
  token: string;
}

export interface ChannelFailure {
  status: number;
  code: number;
  message: string;
}

/** Discord's own error bodies for the failures the bot must treat as "gone". */
export const DISCORD_ERRORS = {
  unknownChannel: { status: 404, code: 10003, message: 'Unknown Channel' },
  missingAccess: { status: 403, code: 50001, message: 'Missing Access' },
  missingPermissions: { status: 403, code: 50013, message: 'Missing Permissions' },
} as const satisfies Record<string, ChannelFailure>;

/** Everything a member can do except manage: view, send, read history. */
export const PLAIN_MEMBER = (1n << 10n) | (1n << 11n) | (1n << 16n);
export const MANAGE_CHANNELS = 1n << 4n;
export const MANAGE_GUILD = 1n << 5n;

let snowflake = 1_100_000_000_000_000_000n;
export function nextSnowflake(): string {
  snowflake += 1n;
  return snowflake.toString();
}

function readBody(req: IncomingMessage): Promise<{ body: unknown; files: RecordedFile[] }> {
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) {
    return new Promise((resolve, reject) => {
      const files: RecordedFile[] = [];
      let body: unknown = null;
      const parser = busboy({ headers: req.headers });
      parser.on('field', (name, value) => {
        if (name === 'payload_json') body = JSON.parse(value);
      });
      parser.on('file', (field, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () =>
          files.push({ field, filename: info.filename ?? '', contentType: info.mimeType, data: Buffer.concat(chunks) }),
        );
      });
      parser.on('close', () => resolve({ body, files }));
      parser.on('error', reject);
      req.pipe(parser);
    });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve({ body: text === '' ? null : JSON.parse(text), files: [] });
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The fields of a Discord message object that the fake always sends the same way: a plain message, posted now. */
function messageDefaults(): Record<string, unknown> {
  return {
    content: '',
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: 0,
    flags: 0,
  };
}

export class FakeDiscord {
  readonly requests: RecordedRequest[] = [];
  readonly messages: FakeMessage[] = [];
  /** IDENTIFY payloads received, for the intents. */
  readonly identifies: Array<Record<string, unknown>> = [];
  /** Each IDENTIFY's shard and time, in the order they came. */
  readonly identifyLog: IdentifySeen[] = [];
  /** IDENTIFYs that came sooner after the last one of their bucket than max_concurrency allows. */
  identifyViolations = 0;
  /** RESUMEs received, in the order they came. */
  readonly resumeLog: ResumeSeen[] = [];
  /** Gateway sockets ever opened (a bot that sends alerts only opens none). */
  gatewayConnections = 0;
  /** Sessions opened at IDENTIFY, by id. */
  private readonly sessions = new Map<string, FakeSession>();
  /** The session each gateway socket runs. */
  private readonly socketSessions = new Map<WebSocket, string>();
  /** Channel messages by the nonce they were posted with under enforce_nonce. */
  private readonly nonces = new Map<string, FakeMessage>();
  private sessionNumber = 0;
  /** Shards closed with 4011 for carrying too many servers. */
  readonly shardingRequired: number[] = [];
  /** The shard each gateway socket identified as. */
  private readonly socketShards = new Map<WebSocket, { id: number; count: number }>();
  /** Registered commands by scope: 'global' or a guild id. */
  readonly commands = new Map<string, unknown[]>();
  readonly heartbeats: number[] = [];
  private readonly failures = new Map<string, ChannelFailure>();
  private readonly sockets = new Set<WebSocket>();
  private readonly waiters: Array<() => void> = [];
  private sequence = 0;
  private http!: Server;
  private wss!: WebSocketServer;
  port = 0;
  readonly botId: string;

  private constructor(readonly options: FakeDiscordOptions) {
    this.botId = options.botId ?? nextSnowflake();
  }

  static async start(options: FakeDiscordOptions): Promise<FakeDiscord> {
    const fake = new FakeDiscord(options);
    await fake.listen();
    return fake;
  }

  /** The REST base to give discord.js (`rest.api`) and the bot's DISCORD_REST_API. */
  get restApi(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  private async listen(): Promise<void> {
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ message: String(error), code: 0 }));
      });
    });
    this.wss = new WebSocketServer({ server: this.http });
    this.wss.on('connection', (socket) => this.onSocket(socket));
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    this.port = (this.http.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  /** Every later message to `channelId` is answered with this failure (null: accepted again). */
  failChannel(channelId: string, failure: ChannelFailure | null): void {
    if (failure === null) this.failures.delete(channelId);
    else this.failures.set(channelId, failure);
  }

  // ---- gateway ----

  private onSocket(socket: WebSocket): void {
    this.sockets.add(socket);
    this.gatewayConnections += 1;
    socket.on('close', (code) => {
      // A bot that closes with 1000 or 1001 ends its session; a socket that just went away (1006,
      // a process killed) leaves it open for a RESUME, as Discord does.
      const sessionId = this.socketSessions.get(socket);
      const session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
      if (session !== undefined && (code === 1000 || code === 1001)) session.open = false;
      this.sockets.delete(socket);
      this.socketShards.delete(socket);
      this.socketSessions.delete(socket);
    });
    socket.on('message', (raw) => {
      const packet: unknown = JSON.parse(raw.toString());
      if (!isRecord(packet)) return;
      if (packet.op === 1) {
        this.heartbeats.push(Date.now());
        socket.send(JSON.stringify({ op: 11, d: null }));
      } else if (packet.op === 2 && isRecord(packet.d)) {
        this.identifies.push(packet.d);
        const [id = 0, count = 1] = Array.isArray(packet.d.shard) ? packet.d.shard.map(Number) : [];
        this.identified(socket, { id, count });
      } else if (packet.op === 6 && isRecord(packet.d)) {
        this.resumeAsked(socket, String(packet.d.session_id), Number(packet.d.seq));
      }
    });
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250 } }));
  }

  private dispatch(socket: WebSocket, t: string, d: unknown): void {
    this.sequence += 1;
    socket.send(JSON.stringify({ op: 0, t, s: this.sequence, d }));
  }

  /** An IDENTIFY: checked against max_concurrency, refused with 4011 past the server count, else READY. */
  private identified(socket: WebSocket, shard: { id: number; count: number }): void {
    const at = Date.now();
    const bucket = shard.id % (this.options.maxConcurrency ?? 1);
    const previous = this.identifyLog.filter((seen) => seen.shard % (this.options.maxConcurrency ?? 1) === bucket).at(-1);
    if (previous !== undefined && at - previous.at < IDENTIFY_SPACING_MS) this.identifyViolations += 1;
    this.identifyLog.push({ shard: shard.id, count: shard.count, at });
    const guilds = this.options.guilds.filter((guild) => guildShard(guild.id, shard.count) === shard.id);
    if (this.options.maxGuildsPerShard !== undefined && guilds.length > this.options.maxGuildsPerShard) {
      this.shardingRequired.push(shard.id);
      socket.close(4011, 'Sharding required.');
      this.wake();
      return;
    }
    this.socketShards.set(socket, shard);
    this.ready(socket, shard, guilds);
    this.wake();
  }

  /** A RESUME: an open session's shard is carried by this socket again (RESUMED), else op 9, not resumable. */
  private resumeAsked(socket: WebSocket, sessionId: string, sequence: number): void {
    const session = this.sessions.get(sessionId);
    this.resumeLog.push({ shard: session?.shard.id ?? -1, sessionId, sequence, resumed: session?.open === true });
    if (session === undefined || !session.open) {
      socket.send(JSON.stringify({ op: 9, d: false }));
      this.wake();
      return;
    }
    // The socket that ran the session before no longer gets its events.
    for (const [other, id] of this.socketSessions) {
      if (id === sessionId && other !== socket) {
        this.socketShards.delete(other);
        this.socketSessions.delete(other);
        other.terminate();
      }
    }
    this.socketShards.set(socket, session.shard);
    this.socketSessions.set(socket, sessionId);
    this.dispatch(socket, 'RESUMED', {});
    this.wake();
  }

  private ready(socket: WebSocket, shard: { id: number; count: number }, guilds: FakeGuild[]): void {
    this.sessionNumber += 1;
    const sessionId = `fake-session-${shard.id}-${this.sessionNumber}`;
    this.sessions.set(sessionId, { shard, open: true });
    this.socketSessions.set(socket, sessionId);
    this.dispatch(socket, 'READY', {
      v: 10,
      user: { id: this.botId, username: 'TokenWatch', discriminator: '0000', global_name: null, avatar: null, bot: true, flags: 0 },
      guilds: guilds.map((guild) => ({ id: guild.id, unavailable: true })),
      session_id: sessionId,
      resume_gateway_url: `ws://127.0.0.1:${this.port}`,
      application: { id: this.options.appId, flags: 0 },
      shard: [shard.id, shard.count],
    });
    for (const guild of guilds) this.dispatch(socket, 'GUILD_CREATE', this.guildPayload(guild));
  }

  private guildPayload(guild: FakeGuild): Record<string, unknown> {
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      owner_id: nextSnowflake(),
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      mfa_level: 0,
      premium_tier: 0,
      system_channel_flags: 0,
      nsfw_level: 0,
      preferred_locale: 'en-US',
      features: [],
      roles: [
        {
          id: guild.id,
          name: '@everyone',
          permissions: PLAIN_MEMBER.toString(),
          position: 0,
          color: 0,
          hoist: false,
          managed: false,
          mentionable: false,
          flags: 0,
        },
      ],
      emojis: [],
      stickers: [],
      channels: guild.channels.map((channel, position) => ({
        id: channel.id,
        name: channel.name,
        type: channel.type ?? 0,
        position,
        permission_overwrites: [],
        nsfw: false,
        parent_id: null,
      })),
      threads: [],
      members: [],
      voice_states: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      member_count: 2,
      large: false,
      unavailable: false,
      joined_at: new Date().toISOString(),
    };
  }

  /** An event of a server, on the shard that carries it (of every bot connected), as Discord routes it. */
  private toGuild(guildId: string, t: string, d: unknown): void {
    const sockets = [...this.socketShards].filter(([, shard]) => guildShard(guildId, shard.count) === shard.id).map(([socket]) => socket);
    if (sockets.length === 0) throw new Error(`no shard carrying server ${guildId} is connected to the fake gateway`);
    for (const socket of sockets) this.dispatch(socket, t, d);
  }

  /** The bot removed from a server (GUILD_DELETE); `unavailable`: the server in an outage instead, which is no removal. */
  removeFromGuild(guildId: string, options: { unavailable?: boolean } = {}): void {
    this.toGuild(guildId, 'GUILD_DELETE', { id: guildId, ...(options.unavailable === true ? { unavailable: true } : {}) });
  }

  /** The bot added to a server again: GUILD_CREATE with its channels, as after an invite. */
  addToGuild(guildId: string): void {
    const guild = this.options.guilds.find((candidate) => candidate.id === guildId);
    if (guild === undefined) throw new Error(`no server ${guildId} in the fake`);
    this.toGuild(guildId, 'GUILD_CREATE', this.guildPayload(guild));
  }

  /** A channel deleted, or hidden from the bot by its permissions (CHANNEL_DELETE); `visible`: shown again (CHANNEL_CREATE). */
  channelVisibility(guildId: string, channelId: string, visible: boolean): void {
    const channel = this.options.guilds.find((guild) => guild.id === guildId)?.channels.find((candidate) => candidate.id === channelId);
    if (channel === undefined) throw new Error(`no channel ${channelId} in server ${guildId}`);
    const payload = {
      id: channel.id,
      guild_id: guildId,
      name: channel.name,
      type: channel.type ?? 0,
      position: 0,
      permission_overwrites: [],
      nsfw: false,
      parent_id: null,
    };
    this.toGuild(guildId, visible ? 'CHANNEL_CREATE' : 'CHANNEL_DELETE', payload);
  }

  /** Closes every gateway connection with a close code, as Discord does when it ends a session (4014: disallowed intents). */
  closeGateway(code: number, reason = ''): void {
    for (const socket of this.sockets) socket.close(code, reason);
  }

  /** Closes one shard's connections with a close code. */
  closeShard(id: number, code: number, reason = ''): void {
    for (const [socket, shard] of this.socketShards) if (shard.id === id) socket.close(code, reason);
  }

  /** The session the fake opened for a shard's latest IDENTIFY, or null. */
  latestSession(shard: number): string | null {
    let found: string | null = null;
    for (const [id, session] of this.sessions) if (session.shard.id === shard) found = id;
    return found;
  }

  /** Resolves once a bot has identified (READY sent). */
  async connected(timeoutMs = 10_000): Promise<void> {
    await this.until(() => this.identifies.length > 0, timeoutMs, 'no IDENTIFY');
  }

  private interactionBase(type: number, options: InteractionOptions): SentInteraction & Record<string, unknown> {
    const userId = options.userId ?? '200000000000000001';
    const permissions = (options.permissions ?? PLAIN_MEMBER).toString();
    const token = `itoken-${nextSnowflake()}`;
    // Replies to this interaction land in its channel.
    this.interactionChannels.set(token, options.channelId);
    return {
      id: nextSnowflake(),
      token,
      type,
      version: 1,
      application_id: this.options.appId,
      guild_id: options.guildId,
      channel_id: options.channelId,
      channel: { id: options.channelId, type: 0, guild_id: options.guildId, name: 'channel' },
      member: {
        user: { id: userId, username: `user${userId.slice(-4)}`, discriminator: '0', global_name: null, avatar: null },
        roles: [],
        joined_at: new Date().toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
        permissions,
      },
      app_permissions: PLAIN_MEMBER.toString(),
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': options.guildId },
      context: 0,
      attachment_size_limit: 10_485_760,
    };
  }

  /** A slash command typed by a member: INTERACTION_CREATE type 2. */
  slashCommand(name: string, values: Record<string, string | number>, options: InteractionOptions, subcommand?: string): SentInteraction {
    const payload = this.interactionBase(2, options);
    const given = Object.entries(values).map(([optionName, value]) => ({
      name: optionName,
      type: typeof value === 'number' ? 10 : 3,
      value,
    }));
    const commandOptions = subcommand === undefined ? given : [{ name: subcommand, type: 1, options: given }];
    payload.data = { id: nextSnowflake(), name, type: 1, guild_id: options.guildId, options: commandOptions };
    this.toGuild(options.guildId, 'INTERACTION_CREATE', payload);
    return { id: payload.id, token: payload.token };
  }

  /**
   * A direct message with the bot, as Discord sends its interactions: no server, no member but the
   * user, a DM channel (type 1), context 1 (BotDM), on shard 0 (where Discord sends DMs).
   */
  private dmInteraction(type: number, options: DmOptions): SentInteraction & Record<string, unknown> {
    const userId = options.userId ?? '200000000000000001';
    const user = { id: userId, username: `user${userId.slice(-4)}`, discriminator: '0', global_name: null, avatar: null };
    const token = `itoken-${nextSnowflake()}`;
    this.interactionChannels.set(token, options.channelId);
    this.dmChannels.add(options.channelId);
    return {
      id: nextSnowflake(),
      token,
      type,
      version: 1,
      application_id: this.options.appId,
      channel_id: options.channelId,
      channel: { id: options.channelId, type: 1, recipients: [user] },
      user,
      app_permissions: PLAIN_MEMBER.toString(),
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': '1' },
      context: 1,
      attachment_size_limit: 10_485_760,
    };
  }

  /** DM channels people wrote to the bot in: the bot may post there. */
  private readonly dmChannels = new Set<string>();

  private toShardZero(t: string, d: unknown): void {
    const sockets = [...this.socketShards].filter(([, shard]) => shard.id === 0).map(([socket]) => socket);
    if (sockets.length === 0) throw new Error('shard 0, which carries direct messages, is not connected to the fake gateway');
    for (const socket of sockets) this.dispatch(socket, t, d);
  }

  /** A slash command typed in a direct message with the bot. */
  dmSlashCommand(name: string, values: Record<string, string | number>, options: DmOptions, subcommand?: string): SentInteraction {
    const payload = this.dmInteraction(2, options);
    const given = Object.entries(values).map(([optionName, value]) => ({
      name: optionName,
      type: typeof value === 'number' ? 10 : 3,
      value,
    }));
    payload.data = {
      id: nextSnowflake(),
      name,
      type: 1,
      options: subcommand === undefined ? given : [{ name: subcommand, type: 1, options: given }],
    };
    this.toShardZero('INTERACTION_CREATE', payload);
    return { id: payload.id, token: payload.token };
  }

  /** A click on a button of a message the bot posted in a direct message. */
  dmClickButton(message: FakeMessage, customId: string, options: { userId?: string } = {}): SentInteraction {
    const payload = this.dmInteraction(3, { ...options, channelId: message.channelId });
    payload.data = { custom_id: customId, component_type: 2 };
    payload.message = this.messagePayload(message);
    this.clickedMessage.set(payload.token, message);
    this.toShardZero('INTERACTION_CREATE', payload);
    return { id: payload.id, token: payload.token };
  }

  /** Typing in an option with autocomplete: INTERACTION_CREATE type 4. */
  autocomplete(name: string, focused: string, typed: string, options: InteractionOptions): SentInteraction {
    const payload = this.interactionBase(4, options);
    payload.data = {
      id: nextSnowflake(),
      name,
      type: 1,
      guild_id: options.guildId,
      options: [{ name: focused, type: 3, value: typed, focused: true }],
    };
    this.toGuild(options.guildId, 'INTERACTION_CREATE', payload);
    return { id: payload.id, token: payload.token };
  }

  /** A member posts a message in a channel: MESSAGE_CREATE (seen only by a bot with the message intents). */
  postMessage(guildId: string, channelId: string, content: string, userId = '200000000000000001'): string {
    const id = nextSnowflake();
    this.toGuild(guildId, 'MESSAGE_CREATE', {
      id,
      channel_id: channelId,
      guild_id: guildId,
      author: { id: userId, username: `user${userId.slice(-4)}`, discriminator: '0', global_name: null, avatar: null },
      member: { roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 },
      ...messageDefaults(),
      content,
    });
    return id;
  }

  /** A click on a button of `message`: INTERACTION_CREATE type 3. */
  clickButton(message: FakeMessage, customId: string, options: Omit<InteractionOptions, 'channelId'>): SentInteraction {
    const payload = this.interactionBase(3, { ...options, channelId: message.channelId });
    payload.data = { custom_id: customId, component_type: 2 };
    payload.message = this.messagePayload(message);
    this.clickedMessage.set(payload.token, message);
    this.toGuild(options.guildId, 'INTERACTION_CREATE', payload);
    return { id: payload.id, token: payload.token };
  }

  private messagePayload(message: FakeMessage): Record<string, unknown> {
    const body = message.body;
    return {
      id: message.id,
      channel_id: message.channelId,
      author: { id: this.botId, username: 'TokenWatch', discriminator: '0000', global_name: null, avatar: null, bot: true },
      ...messageDefaults(),
      content: typeof body.content === 'string' ? body.content : '',
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      components: Array.isArray(body.components) ? body.components : [],
      flags: typeof body.flags === 'number' ? body.flags : 0,
      application_id: this.options.appId,
    };
  }

  // ---- REST ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    const path = decodeURIComponent(url.pathname.replace(/^\/api(\/v\d+)?/, ''));
    const { body, files } = await readBody(req);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      query: url.searchParams,
      body,
      files,
      authorization: req.headers.authorization,
      status: 200,
    };
    this.requests.push(record);
    const answer = (status: number, json?: unknown) => {
      record.status = status;
      res.statusCode = status;
      if (json === undefined) {
        // A 204 must not claim JSON: discord.js would try to read the empty body.
        res.end();
      } else {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(json));
      }
      this.wake();
    };
    if (req.headers.authorization !== `Bot ${this.options.token}` && !path.startsWith('/interactions/') && !path.startsWith('/webhooks/')) {
      answer(401, { message: '401: Unauthorized', code: 0 });
      return;
    }
    const method = record.method;
    let match: RegExpExecArray | null;
    if (method === 'GET' && (path === '/gateway/bot' || path === '/gateway')) {
      answer(200, {
        url: this.options.gatewayUrl ?? `ws://127.0.0.1:${this.port}`,
        shards: this.options.shards ?? 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: this.options.maxConcurrency ?? 1 },
      });
    } else if (method === 'GET' && path === '/users/@me') {
      answer(200, { id: this.botId, username: 'TokenWatch', discriminator: '0000', global_name: null, avatar: null, bot: true, flags: 0 });
    } else if (method === 'GET' && path === '/applications/@me') {
      answer(200, {
        id: this.options.appId,
        name: 'TokenWatch',
        icon: null,
        description: '',
        bot_public: true,
        bot_require_code_grant: false,
        verify_key: '',
        team: null,
        flags: 0,
      });
    } else if ((match = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(path)) !== null) {
      const scope = match[2] ?? 'global';
      if (method === 'PUT' && Array.isArray(body)) {
        const stored = body.map((command: unknown) => ({
          ...(isRecord(command) ? command : {}),
          id: nextSnowflake(),
          application_id: match![1],
          version: nextSnowflake(),
        }));
        this.commands.set(scope, stored);
        answer(200, stored);
      } else {
        answer(200, this.commands.get(scope) ?? []);
      }
    } else if (method === 'POST' && (match = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path)) !== null) {
      this.interactionCallback(match[2] ?? '', body, files);
      answer(204);
    } else if ((match = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/.exec(path)) !== null) {
      const message = this.messages.find((m) => m.interactionToken === match![2] && (match![3] === '@original' || m.id === match![3]));
      if (message === undefined) {
        answer(404, { message: 'Unknown Message', code: 10008 });
        return;
      }
      if (method === 'DELETE') {
        this.messages.splice(this.messages.indexOf(message), 1);
        answer(204);
        return;
      }
      if (method === 'PATCH' && isRecord(body)) {
        message.body = { ...message.body, ...body };
        if (files.length > 0) message.files = files;
        message.edits += 1;
      }
      answer(200, this.messagePayload(message));
    } else if (method === 'POST' && (match = /^\/webhooks\/(\d+)\/([^/]+)$/.exec(path)) !== null) {
      const message = this.addMessage(this.channelOfToken(match[2] ?? ''), match[2] ?? null, isRecord(body) ? body : {}, files);
      answer(200, this.messagePayload(message));
    } else if (method === 'POST' && (match = /^\/channels\/(\d+)\/messages$/.exec(path)) !== null) {
      const channelId = match[1] ?? '';
      const failure = this.failures.get(channelId);
      if (failure !== undefined) {
        answer(failure.status, { message: failure.message, code: failure.code });
        return;
      }
      // A server's channel, or the DM of a person who wrote to the bot there.
      if (
        !this.dmChannels.has(channelId) &&
        !this.options.guilds.some((guild) => guild.channels.some((channel) => channel.id === channelId))
      ) {
        answer(404, { message: 'Unknown Channel', code: 10003 });
        return;
      }
      const fields = isRecord(body) ? body : {};
      // enforce_nonce: the same nonce again within Discord's few minutes is the message already posted.
      const nonce =
        fields.enforce_nonce === true && (typeof fields.nonce === 'string' || typeof fields.nonce === 'number')
          ? String(fields.nonce)
          : null;
      const earlier = nonce === null ? undefined : this.nonces.get(nonce);
      if (earlier !== undefined) {
        answer(200, this.messagePayload(earlier));
        return;
      }
      const message = this.addMessage(channelId, null, fields, files);
      if (nonce !== null) this.nonces.set(nonce, message);
      answer(200, this.messagePayload(message));
    } else {
      answer(404, { message: `404: Not Found (${method} ${path})`, code: 0 });
    }
  }

  /** Interaction tokens of answered interactions, with their channel, for follow-ups. */
  private readonly interactionChannels = new Map<string, string>();

  private channelOfToken(token: string): string {
    return this.interactionChannels.get(token) ?? '0';
  }

  /** What an interaction's answer does to the fake's messages. */
  private interactionCallback(token: string, body: unknown, files: RecordedFile[]): void {
    if (!isRecord(body)) return;
    const data = isRecord(body.data) ? body.data : {};
    const channelId = this.channelOfToken(token);
    // 4: a message; 5: "thinking…", a message edited later; 7: the clicked message, updated.
    if (body.type === 4 || body.type === 5) {
      this.addMessage(channelId, token, body.type === 5 ? { ...data, deferred: true } : data, files);
    } else if (body.type === 7) {
      const clicked = this.clickedMessage.get(token);
      if (clicked !== undefined) {
        clicked.body = { ...clicked.body, ...data };
        if (files.length > 0) clicked.files = files;
        clicked.edits += 1;
      }
    } else if (body.type === 6) {
      // Deferred update: a later edit of @original edits the clicked message.
      const clicked = this.clickedMessage.get(token);
      if (clicked !== undefined) clicked.interactionToken = token;
    }
  }

  private readonly clickedMessage = new Map<string, FakeMessage>();

  private addMessage(channelId: string, token: string | null, body: Record<string, unknown>, files: RecordedFile[]): FakeMessage {
    const flags = typeof body.flags === 'number' ? body.flags : 0;
    const message: FakeMessage = {
      id: nextSnowflake(),
      channelId,
      interactionToken: token,
      ephemeral: (flags & 64) !== 0,
      body,
      files,
      edits: 0,
    };
    this.messages.push(message);
    return message;
  }

  // ---- waiting ----

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits until `check` holds, re-checked after every request; fails after `timeoutMs`. */
  async until(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`fake Discord: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The message that answers an interaction, once its final form is there (a deferred one once edited). */
  async answerTo(interaction: SentInteraction, timeoutMs = 10_000): Promise<FakeMessage> {
    let found: FakeMessage | undefined;
    await this.until(
      () => {
        found = this.messages.find((m) => m.interactionToken === interaction.token && (m.body.deferred !== true || m.edits > 0));
        return found !== undefined;
      },
      timeoutMs,
      `the answer to interaction ${interaction.id}`,
    );
    return found!;
  }

  /** Callback requests of one interaction, in order. */
  callbacks(interaction: SentInteraction): RecordedRequest[] {
    return this.requests.filter((r) => r.path === `/interactions/${interaction.id}/${interaction.token}/callback`);
  }

  /** Messages posted to a channel by the bot through `POST /channels/{id}/messages`. */
  channelMessages(channelId: string): FakeMessage[] {
    return this.messages.filter((m) => m.channelId === channelId && m.interactionToken === null);
  }
}
