/**
 * BENCH_CPU_PROFILE=DIR: CPU profiles of chosen stretches of a section, one file each in DIR, so a
 * profile of the alert path holds the bot's rounds and not the set-up, the bare client's rounds or
 * the other phases (`node --cpu-prof` profiles the whole process). BENCH_ALLOCATION_PROFILE=DIR:
 * the same stretches' allocations, sampled (what the young generation's collections are made of).
 * Without either variable, nothing is started and each call costs a check.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

const CPU_DIR = process.env.BENCH_CPU_PROFILE ?? '';
const ALLOCATION_DIR = process.env.BENCH_ALLOCATION_PROFILE ?? '';

let session: Session | null = null;
let taken = 0;

async function connected(): Promise<Session> {
  if (session !== null) return session;
  session = new Session();
  session.connect();
  if (CPU_DIR !== '') {
    await session.post('Profiler.enable');
    // 100 µs between samples: frames are handled in tens of microseconds.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  if (ALLOCATION_DIR !== '') await session.post('HeapProfiler.enable');
  return session;
}

/** Starts profiling, when asked for. */
export async function startCpuProfile(): Promise<void> {
  if (CPU_DIR === '' && ALLOCATION_DIR === '') return;
  const inspector = await connected();
  if (CPU_DIR !== '') await inspector.post('Profiler.start');
  // One sample every 16 KB allocated, on average; objects collected since are kept in the profile.
  if (ALLOCATION_DIR !== '')
    await inspector.post('HeapProfiler.startSampling', {
      samplingInterval: 16_384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
}

/** Stops the profiles started last and writes them as DIR/NAME-N.cpuprofile and .heapprofile. */
export async function stopCpuProfile(name: string): Promise<void> {
  if (session === null) return;
  taken += 1;
  if (CPU_DIR !== '') {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(CPU_DIR, { recursive: true });
    writeFileSync(join(CPU_DIR, `${name}-${String(taken)}.cpuprofile`), JSON.stringify(profile));
  }
  if (ALLOCATION_DIR !== '') {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    mkdirSync(ALLOCATION_DIR, { recursive: true });
    writeFileSync(join(ALLOCATION_DIR, `${name}-${String(taken)}.heapprofile`), JSON.stringify(profile));
  }
}
