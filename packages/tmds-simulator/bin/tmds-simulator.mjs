#!/usr/bin/env node
// `tmds-simulator [flags]`: the package is TypeScript, run as it is written, with no build step:
// tsx's loader is registered first, then the command line is loaded through it.
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  process.stderr.write('tmds-simulator: needs tsx to run its TypeScript (npm install tsx)\n');
  process.exit(1);
}
register();
const { runSimulatorCli } = await import('../src/cli/index.ts');
runSimulatorCli(process.argv.slice(2));
