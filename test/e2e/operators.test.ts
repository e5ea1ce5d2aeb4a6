/**
 * The operators' HTTP server on the whole bot (a SQLite file, the simulator with its scenario
 * controls, real sockets): /metrics, read back by a Prometheus text parser, counts one risk change
 * as one alert detected and one delivered; /readyz turns 503 when the service goes away and 200 when
 * it is back, without a restart; no label carries a chat id, an address or what a person typed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { histogramCount, sampleValue, scrape, type Families } from '../support/prometheus';
import { chatRef, KEY, quietSimulator, startHarness, type Harness } from './harness';

const WAIT = { timeout: 20_000, interval: 50 };

let sim: RunningSimulator;
let h: Harness;
let dir: string;

beforeEach(async () => {
  sim = await quietSimulator();
  dir = mkdtempSync(join(tmpdir(), 'tokenwatch-ops-'));
  h = await startHarness(sim, join(dir, 'bot.db'), { http: true });
});

afterEach(async () => {
  await h.app.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function address(): string {
  const ops = h.app.ops;
  if (ops === null) throw new Error('the operators’ server did not start');
  return ops.address;
}

async function ready(): Promise<{ status: number; body: { ready: boolean; notReady: string[] } }> {
  const response = await fetch(`${address()}/readyz`);
  return { status: response.status, body: (await response.json()) as { ready: boolean; notReady: string[] } };
}

const detected = (families: Families) => sampleValue(families, 'tokenwatch_alerts_detected_total', { kind: 'risk-status' });
const delivered = (families: Families) =>
  sampleValue(families, 'tokenwatch_alerts_delivered_total', { platform: 'telegram', kind: 'risk-status' });

describe('the operators’ HTTP server on the running bot', () => {
  it('counts a forced risk change once as detected and once as delivered, and labels carry no chat, address or typed text', async () => {
    const hostile = new Set(sim.market.hostileTokens());
    const token = sim.market.tokenAddresses().find((t) => !hostile.has(t)) as string;
    const chat = chatRef('telegram', '-100777');
    expect((await h.say(chat, `/track token ${token} risk`)).errorId).toBeNull();
    await h.say(chat, '/frobnicate-7f3e');
    await vi.waitFor(async () => expect(await h.app.store.state.token(token)).not.toBeNull(), WAIT);
    const before = await scrape(address());

    sim.controls.risk({ tokenAddress: token, riskStatus: sim.market.token(token)?.riskStatus === 'DANGER' ? 'WARNING' : 'DANGER' });
    let after = before;
    await vi.waitFor(async () => {
      after = await scrape(address());
      expect(delivered(after.families)).toBe(delivered(before.families) + 1);
    }, WAIT);
    expect(detected(after.families)).toBe(detected(before.families) + 1);
    expect(histogramCount(after.text, 'tokenwatch_alert_delivery_seconds')).toBe(
      histogramCount(before.text, 'tokenwatch_alert_delivery_seconds') + 1,
    );
    expect(sampleValue(after.families, 'tokenwatch_commands_total', { command: 'track', platform: 'telegram', result: 'ok' })).toBe(1);
    expect(sampleValue(after.families, 'tokenwatch_commands_total', { command: 'unknown', platform: 'telegram', result: 'usage' })).toBe(1);
    expect(sampleValue(after.families, 'tokenwatch_follows', { kind: 'token' })).toBe(1);
    expect(sampleValue(after.families, 'tokenwatch_stream_sockets', { state: 'open' })).toBeGreaterThan(0);
    expect(sampleValue(after.families, 'tokenwatch_service_requests_total', { endpoint: 'token-data', status: '200' })).toBeGreaterThan(0);
    // Node's and the process's own.
    expect(after.families.has('process_cpu_user_seconds_total')).toBe(true);
    expect(after.families.has('nodejs_eventloop_lag_seconds')).toBe(true);

    for (const [name, family] of after.families) {
      if (!name.startsWith('tokenwatch_')) continue;
      for (const sample of family.metrics) {
        for (const value of Object.values(sample.labels ?? {})) {
          expect(value, name).not.toContain(token);
          expect(value, name).not.toContain(chat.chatId);
          expect(value, name).not.toContain('frobnicate');
        }
      }
    }
    sim.controls.risk({ tokenAddress: token, riskStatus: null });
  });

  it('/readyz turns 503 naming the streams when the service stops, and 200 again when it is back', async () => {
    const token = sim.market.tokenAddresses()[1] as string;
    await h.say(chatRef('telegram', '-100778'), `/track token ${token} risk`);
    await vi.waitFor(async () => expect(h.app.streams.status().sockets.some((socket) => socket.state === 'open')).toBe(true), WAIT);
    expect(await ready()).toMatchObject({ status: 200, body: { ready: true, notReady: [] } });
    const health = await fetch(`${address()}/healthz`);
    expect(health.status).toBe(200);

    const port = Number(new URL(sim.baseUrl).port);
    await sim.close();
    await vi.waitFor(async () => expect(await ready()).toMatchObject({ status: 503, body: { ready: false, notReady: ['streams'] } }), {
      timeout: 30_000,
      interval: 100,
    });
    // Liveness asks nothing of the service.
    expect((await fetch(`${address()}/healthz`)).status).toBe(200);

    // Back at the same address. Another process on this machine may hold the port a moment
    // (a connection of its own from it, say): asked again until it is free.
    sim = await vi.waitFor(() => startSimulator({ apiKey: KEY, port, seed: 42, control: true, tradesPerSecond: 0 }), {
      timeout: 30_000,
      interval: 200,
    });
    await vi.waitFor(async () => expect(await ready()).toMatchObject({ status: 200, body: { ready: true } }), {
      timeout: 60_000,
      interval: 100,
    });
  }, 120_000);
});
