/**
 * BENCH_CPU_PROFILE=DIR: CPU profiles of chosen stretches of a section, one file each in DIR, so a
 * profile of the alert path holds the bot's rounds and not the set-up, the bare client's rounds or
 * the other phases (`node --cpu-prof` profiles the whole process). Without the variable, nothing
 * is started and each call costs a check.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

const DIR = process.env.BENCH_CPU_PROFILE ?? '';

let session: Session | null = null;
let taken = 0;

/** Starts profiling, when asked for. */
export async function startCpuProfile(): Promise<void> {
  if (DIR === '') return;
  if (session === null) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    // 100 µs between samples: frames are handled in tens of microseconds.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  await session.post('Profiler.start');
}

/** Stops the profile started last and writes it as DIR/NAME-N.cpuprofile. */
export async function stopCpuProfile(name: string): Promise<void> {
  if (session === null) return;
  const { profile } = await session.post('Profiler.stop');
  mkdirSync(DIR, { recursive: true });
  taken += 1;
  writeFileSync(join(DIR, `${name}-${String(taken)}.cpuprofile`), JSON.stringify(profile));
}
