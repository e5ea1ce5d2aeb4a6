// `npm run test:loaded`: the whole suite on a machine with no core to spare. One busy loop per core
// (os.availableParallelism()) spins beside `npm test` for as long as it runs, so a test that
// passes only when its sleep happens to be long enough, or a deadline that is really a speed
// figure, shows up here. Arguments go to `npm test` (and so to vitest): `npm run test:loaded --
// test/store`. The loops end when the suite ends, whatever its result, and the exit code is the
// suite's.
import { spawn } from 'node:child_process';
import { availableParallelism, constants } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

// A busy loop that still ends if this script is killed outright (no chance to stop it): every few
// million turns it checks that its parent is the one that started it.
const BUSY_LOOP = 'const parent = process.ppid; for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent) process.exit(0); }';

const loops = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', BUSY_LOOP], { stdio: 'ignore' }));
const stopLoops = () => {
  for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
};
process.stderr.write(`test:loaded: ${loops.length} busy loops beside npm test\n`);

const extra = process.argv.slice(2);
const suite = spawn('npm', ['test', ...(extra.length > 0 ? ['--', ...extra] : [])], { cwd: root, stdio: 'inherit' });

// Stopped from outside (Ctrl-C, a CI timeout): the suite is told, and the loops go at once.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopLoops();
    suite.kill(signal);
  });
}

suite.on('error', (error) => {
  stopLoops();
  process.stderr.write(`test:loaded: could not run npm test: ${error.message}\n`);
  process.exit(1);
});

suite.on('exit', (code, signal) => {
  stopLoops();
  process.exit(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)));
});
