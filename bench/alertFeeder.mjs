/**
 * The alert bench's feeder, a child process of the bench (the other core, and its memory is not the
 * bot's), in plain JavaScript: a WebSocket server speaking the stream protocol of docs/streams.md
 * for any number of tokens, as the simulator speaks it (an acknowledgement and a snapshot per
 * subscription: the token on token-feed, its 20 largest holders on holders-live), which on command
 * pushes token-feed frames as fast as its sockets take them, or at a set pace. Frames are one
 * simulated token's JSON with the address, the risk status and the holders count filled in; the
 * token's `version` field carries the send time (epoch ms, sub-millisecond), so the bench can time
 * each frame to its outbox row.
 *
 * Like the simulator, it takes several subscriptions a socket, or with ALERT_FEEDER_ONE_PER_SOCKET=1
 * one only, answering a second with an error and close 4000 as the simulator does with
 * `--subscriptions-per-socket 1`. Sockets opened with `?group=NAME` in their URL form a group of
 * their own: the bench's bare client subscribes the same tokens that way, and each command names
 * the group whose sockets get the frames, so the bot and the bare client run turn about. A path
 * under `/g/NAME/` names a group too, for a client that builds its stream URLs from a base address
 * (two bots on two stores, taking turns).
 */
import { performance } from 'node:perf_hooks';
import { WebSocketServer } from 'ws';

// Environment: ALERT_FEEDER_TEMPLATE (a wire token), ALERT_FEEDER_HOLDERS (a list of wire holders),
// ALERT_FEEDER_ONE_PER_SOCKET ('1': a strict service).
// Commands: { type: 'blast', group, count, alertEvery } | { type: 'pace', group, perSecond, count }
//           | { type: 'count' } | { type: 'close' }.

if (!process.send) throw new Error('alertFeeder runs as a child process (fork)');
const port = { postMessage: (message) => process.send?.(message), on: (event, listener) => process.on(event, listener) };
// The templates come in the environment, so the server can start at once.
const template = JSON.parse(process.env.ALERT_FEEDER_TEMPLATE ?? '{}');
const holderTemplates = JSON.parse(process.env.ALERT_FEEDER_HOLDERS ?? '[]');
const onePerSocket = process.env.ALERT_FEEDER_ONE_PER_SOCKET === '1';

const MARK = '\u0000';
// The frame split around the four values that change, so a frame is a few concatenations.
const pieces = JSON.stringify({
  type: 'token',
  tokenAddress: `${MARK}A`,
  data: { ...template, address: `${MARK}A`, riskStatus: `${MARK}R`, holdersCount: `${MARK}H`, version: `${MARK}V` },
}).split(/"\\u0000([ARHV])"/);

function frame(address, status, holders, sentAt) {
  let out = '';
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index] ?? '';
    if (index % 2 === 0) out += piece;
    else if (piece === 'A') out += `"${address}"`;
    else if (piece === 'R') out += `"${status}"`;
    else if (piece === 'H') out += `"${holders}"`;
    else out += `"${sentAt.toFixed(3)}"`;
  }
  return out;
}

// Each holder snapshot frame split around the token's address.
const holderPieces = holderTemplates.map((holder) =>
  JSON.stringify({
    type: 'holder',
    tokenAddress: `${MARK}A`,
    wallet: holder.address,
    snapshot: true,
    data: { ...holder, tokenAddress: `${MARK}A` },
  }).split(`"${MARK}A"`.replace(MARK, '\\u0000')),
);

const now = () => performance.timeOrigin + performance.now();

/**
 * Per group, token → the socket that follows it on token-feed, the tokens in the order first
 * subscribed, and their state: each group sees its own tokens change, so a frame one group was sent
 * never makes another group's next frame no change at all.
 */
const groups = new Map();
const STATUSES = ['SAFE', 'WARNING'];

function groupOf(name) {
  let group = groups.get(name);
  if (!group) groups.set(name, (group = { owners: new Map(), order: [], state: new Map() }));
  return group;
}

/** Every socket's live subscriptions, for the bench's count. */
const live = new Map();

const server = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 64 * 1024, backlog: 4096, perMessageDeflate: false });
server.on('connection', (socket, request) => {
  const url = new URL(request.url ?? '/', 'ws://feeder');
  const prefixed = /^\/g\/([^/]+)(\/.*)$/.exec(url.pathname);
  const stream = (prefixed?.[2] ?? url.pathname).replace(/^\/ws\//, '');
  const group = groupOf(prefixed?.[1] ?? url.searchParams.get('group') ?? 'bot');
  const subscriptions = new Set();
  live.set(socket, subscriptions);
  socket.on('error', () => undefined);
  socket.on('close', () => {
    live.delete(socket);
    if (stream !== 'token-feed') return;
    for (const address of subscriptions) if (group.owners.get(address) === socket) group.owners.delete(address);
  });
  socket.on('message', (data) => {
    if (socket.readyState !== socket.OPEN) return;
    const message = JSON.parse(String(data));
    const address = message.tokenAddress;
    if (typeof address !== 'string') return;
    if (message.action === 'unsubscribe') {
      subscriptions.delete(address);
      return;
    }
    if (onePerSocket && subscriptions.size >= 1 && !subscriptions.has(address)) {
      socket.send(JSON.stringify({ type: 'error', error: 'Bad Request', message: 'At most 1 subscription per socket' }));
      socket.close(4000, 'Bad Request: At most 1 subscription per socket');
      return;
    }
    subscriptions.add(address);
    socket.send(JSON.stringify({ type: 'subscribed', stream, tokenAddress: address }));
    if (stream === 'holders-live') {
      for (const parts of holderPieces) socket.send(parts.join(`"${address}"`));
      return;
    }
    if (stream !== 'token-feed') return;
    if (!group.owners.has(address)) group.order.push(address);
    group.owners.set(address, socket);
    const current = group.state.get(address) ?? { status: 0, holders: 100 };
    group.state.set(address, current);
    socket.send(
      JSON.stringify({
        type: 'token',
        tokenAddress: address,
        snapshot: true,
        data: JSON.parse(frame(address, STATUSES[current.status] ?? 'SAFE', current.holders, now())).data,
      }),
    );
  });
});
server.on('listening', () => {
  const address = server.address();
  port.postMessage({ type: 'listening', port: typeof address === 'object' && address !== null ? address.port : 0 });
});

// Small: a pong queued behind megabytes of frames would arrive after the client's heartbeat gave up.
const HIGH_WATER = 256 * 1024;

/** The next frame for the n-th token of a group: one frame in `alertEvery` flips its status, the others change its holders count. */
let framesMade = 0;

function next(group, index, alertEvery) {
  const address = group.order[index];
  if (address === undefined) return null;
  const socket = group.owners.get(address);
  const current = group.state.get(address);
  if (!socket || !current) return null;
  framesMade += 1;
  if (alertEvery > 0 && (alertEvery === 1 || framesMade % alertEvery === 0)) current.status = 1 - current.status;
  else current.holders += 1;
  return { socket, text: frame(address, STATUSES[current.status] ?? 'SAFE', current.holders, now()) };
}

async function blast(group, count, alertEvery) {
  const startedAt = now();
  let sent = 0;
  while (sent < count) {
    for (let index = 0; index < group.order.length && sent < count; index++) {
      const item = next(group, index, alertEvery);
      if (!item) continue;
      // Wait for a socket whose reader is behind: a real service's kernel buffers do the same.
      let socket = item.socket;
      while (socket.readyState === socket.OPEN && socket.bufferedAmount > HIGH_WATER) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        socket = group.owners.get(group.order[index]) ?? socket;
      }
      socket.send(item.text);
      sent += 1;
    }
  }
  port.postMessage({ type: 'blasted', startedAt, endedAt: now(), sent });
}

async function pace(group, perSecond, count) {
  const startedAt = now();
  const gap = 1000 / perSecond;
  let sent = 0;
  while (sent < count) {
    for (let index = 0; index < group.order.length && sent < count; index++) {
      const due = startedAt + sent * gap;
      const wait = due - now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      // Every paced frame flips the status: each one ends as outbox rows.
      const item = next(group, index, 1);
      if (!item) continue;
      item.socket.send(item.text);
      sent += 1;
    }
  }
  port.postMessage({ type: 'paced', startedAt, endedAt: now(), sent });
}

port.on('message', (command) => {
  if (command.type === 'blast') void blast(groupOf(command.group ?? 'bot'), command.count, command.alertEvery);
  else if (command.type === 'pace') void pace(groupOf(command.group ?? 'bot'), command.perSecond, command.count);
  else if (command.type === 'count') {
    let subscriptions = 0;
    for (const held of live.values()) subscriptions += held.size;
    port.postMessage({ type: 'counted', sockets: live.size, subscriptions });
  } else {
    for (const client of server.clients) client.terminate();
    server.close(() => {
      port.postMessage({ type: 'closed' });
      process.disconnect?.();
    });
  }
});
