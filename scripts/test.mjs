// `npm test`: the type check (`tsc --noEmit`) and the test suite (`vitest run`) side by side,
// failing if either fails. The type check keeps about one core busy for ten seconds; the suite
// spends part of its run waiting on sockets and child processes, so the two overlap well instead
// of the type check holding up every test. Arguments go to vitest (`npm test -- test/store`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const bin = (name) => join(import.meta.dirname, '..', 'node_modules', '.bin', name);

function exitOf(child) {
  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

// tsc's report is held back and printed after vitest's, so the two never interleave.
const tsc = spawn(bin('tsc'), ['--noEmit', '--pretty'], { stdio: ['ignore', 'pipe', 'pipe'] });
let report = '';
tsc.stdout.on('data', (chunk) => (report += chunk));
tsc.stderr.on('data', (chunk) => (report += chunk));
const vitest = spawn(bin('vitest'), ['run', ...process.argv.slice(2)], { stdio: 'inherit' });

const [typeCheck, suite] = await Promise.all([exitOf(tsc), exitOf(vitest)]);
if (typeCheck === 0) {
  process.stdout.write('\n Type check passed (tsc --noEmit)\n');
} else {
  process.stdout.write(`\n Type check failed (tsc --noEmit):\n${report}\n`);
}
process.exit(typeCheck !== 0 ? typeCheck : suite);
