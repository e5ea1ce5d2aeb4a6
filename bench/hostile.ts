/**
 * `npm run bench -- hostile`: the market client's peak memory while a hostile server answers every
 * endpoint with the biggest bodies the caps allow, in every hostile variant, 16 calls at once (the
 * client's connection count). The client runs in a child process, so the figure is its own.
 * Records `hostile_peak_rss_mb` (goal: under 512).
 */
import { measureHostilePeakRss } from '../test/market/support/hostileRss';
import { recordResult } from './results';

export async function benchHostile(): Promise<Array<{ what: string; figure: string }>> {
  const started = performance.now();
  const result = await measureHostilePeakRss({ rounds: 3, concurrency: 16 });
  recordResult('hostile_peak_rss_mb', result.peakRssMb, 'MB');
  const calls = Object.values(result.outcomes).reduce((sum, count) => sum + count, 0);
  return [
    { what: 'hostile answers: peak RSS of the client (goal < 512 MB)', figure: `${result.peakRssMb.toFixed(1)} MB` },
    {
      what: 'hostile answers: calls made, all six endpoints × 3 variants',
      figure: `${calls} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    },
  ];
}
