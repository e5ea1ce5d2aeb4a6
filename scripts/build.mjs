// `npm run build`: the bot and its commands as ES modules in dist/, run with plain `node`
// (`node dist/src/main.js`). tsc type-checks and emits per tsconfig.build.json, then every
// relative import gets its `.js` (addImportExtensions.mjs). Arguments go to tsc: the build test
// runs `npm run build -- --noCheck`, emitting without a second type check of sources that
// `npm test` type-checks beside it.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const run = (command, args) => {
  const { status, error } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (error) throw error;
  if (status !== 0) process.exit(status ?? 1);
};

rmSync(join(root, 'dist'), { recursive: true, force: true });
run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', ...process.argv.slice(2)]);
run(process.execPath, [join(root, 'scripts', 'addImportExtensions.mjs'), join(root, 'dist')]);
