/**
 * The alert bench's feeder, a child process of the bench (the other core, and its memory is not the
 * bot's), in plain JavaScript: a WebSocket server speaking the
 * stream protocol of docs/streams.md for any number of tokens, which on command pushes token-feed
 * frames as fast as its sockets take them, or at a set pace. Frames are one simulated token's
 * JSON with the address, the risk status and the holders count filled in; the token's `version`
 * field carries the send time (epoch ms, sub-millisecond), so the bench can time each frame to its
 * outbox row.
 */
import { performance } from 'node:perf_hooks';
import { WebSocketServer } from 'ws';

// workerData: { template }, a wire token whose address, riskStatus, holdersCount and version are replaced.
// Commands: { type: 'blast', count, alertEvery } | { type: 'pace', perSecond, count } | { type: 'close' }.

if (!process.send) throw new Error('alertFeeder runs as a child process (fork)');
const port = { postMessage: (message) => process.send?.(message), on: (event, listener) => process.on(event, listener) };
// The template comes in the environment, so the server can start at once.
const template = JSON.parse(process.env.ALERT_FEEDER_TEMPLATE ?? '{}');

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

const now = () => performance.timeOrigin + performance.now();

/** Token → the socket that follows it on token-feed, and its current state. */
const owners = new Map();
const order = [];
const state = new Map();
const STATUSES = ['SAFE', 'WARNING'];

const server = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 64 * 1024 });
server.on('connection', (socket, request) => {
  const stream = (request.url ?? '').replace(/^\/ws\//, '');
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    const address = message.tokenAddress;
    if (typeof address !== 'string') return;
    if (message.action === 'unsubscribe') return;
    socket.send(JSON.stringify({ type: 'subscribed', stream, tokenAddress: address }));
    if (stream !== 'token-feed') return;
    if (!owners.has(address)) order.push(address);
    owners.set(address, socket);
    const current = state.get(address) ?? { status: 0, holders: 100 };
    state.set(address, current);
    socket.send(JSON.stringify({ type: 'token', tokenAddress: address, snapshot: true, data: JSON.parse(frame(address, STATUSES[current.status] ?? 'SAFE', current.holders, now())).data }));
  });
});
server.on('listening', () => {
  const address = server.address();
  port.postMessage({ type: 'listening', port: typeof address === 'object' && address !== null ? address.port : 0 });
});

// Small: a pong queued behind megabytes of frames would arrive after the client's heartbeat gave up.
const HIGH_WATER = 256 * 1024;

/** The next frame for the n-th token: one frame in `alertEvery` flips its status, the others change its holders count. */
let framesMade = 0;

function next(index, round, alertEvery) {
  const address = order[index];
  if (address === undefined) return null;
  const socket = owners.get(address);
  const current = state.get(address);
  if (!socket || !current) return null;
  framesMade += 1;
  if (alertEvery > 0 && (alertEvery === 1 || framesMade % alertEvery === 0)) current.status = 1 - current.status;
  else current.holders += 1;
  return { socket, text: frame(address, STATUSES[current.status] ?? 'SAFE', current.holders, now()) };
}

async function blast(count, alertEvery) {
  const startedAt = now();
  let sent = 0;
  let round = 1;
  while (sent < count) {
    for (let index = 0; index < order.length && sent < count; index++) {
      const item = next(index, round, alertEvery);
      if (!item) continue;
      // Wait for a socket whose reader is behind: a real service's kernel buffers do the same.
      let socket = item.socket;
      while (socket.readyState === socket.OPEN && socket.bufferedAmount > HIGH_WATER) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        socket = owners.get(order[index]) ?? socket;
      }
      socket.send(item.text);
      sent += 1;
    }
    round += 1;
  }
  port?.postMessage({ type: 'blasted', startedAt, endedAt: now(), sent });
}

async function pace(perSecond, count) {
  const startedAt = now();
  const gap = 1000 / perSecond;
  let sent = 0;
  let round = 1;
  while (sent < count) {
    for (let index = 0; index < order.length && sent < count; index++) {
      const due = startedAt + sent * gap;
      const wait = due - now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      // Every paced frame flips the status: each one ends as outbox rows.
      const item = next(index, 0, 1);
      if (!item) continue;
      item.socket.send(item.text);
      sent += 1;
    }
    round += 1;
  }
  port?.postMessage({ type: 'paced', startedAt, endedAt: now(), sent, rounds: round });
}

port.on('message', (command) => {
  if (command.type === 'blast') void blast(command.count, command.alertEvery);
  else if (command.type === 'pace') void pace(command.perSecond, command.count);
  else {
    for (const client of server.clients) client.terminate();
    server.close(() => {
      port.postMessage({ type: 'closed' });
      process.disconnect?.();
    });
  }
});
