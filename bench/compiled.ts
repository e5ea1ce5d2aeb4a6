/**
 * A bench entry compiled as the bot ships: `npm run build` gives plain ES modules run by plain
 * `node` (Dockerfile: `node --max-old-space-size=512 dist/src/main.js`), while the bench runs its
 * TypeScript through tsx, whose loader (a thread of its own, and the compiled sources it keeps)
 * adds tens of megabytes to the process. A figure of the shipped bot's memory is taken from the
 * entry compiled here, with its imports, by the same tsc and scripts/addImportExtensions.mjs.
 *
 * The output goes under node_modules/.cache (ignored, and packages resolve from there as from the
 * sources); the feeder (plain JavaScript) is copied beside the compiled bench files.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'node_modules', '.cache', 'tokenwatch-bench');

function run(command: string, args: string[]): void {
  const { status, error, stderr } = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  if (error) throw error;
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit code ${String(status)}): ${stderr}`);
}

/** Compiles `entry` (a path from the repository's root, `bench/x.ts`) and what it imports; returns the compiled entry's path. */
export function compileBenchEntry(entry: string): string {
  rmSync(OUT, { recursive: true, force: true });
  // tsconfig.json's options, emitting; the type check is `npx tsc --noEmit`'s, not this build's.
  run(join(ROOT, 'node_modules', '.bin', 'tsc'), [
    entry,
    // The simulator package is reached through its link in node_modules/, which tsc does not emit:
    // named here, it is compiled beside the bench as `npm run build` compiles it beside the bot.
    'packages/tmds-simulator/src/index.ts',
    '--outDir',
    OUT,
    '--rootDir',
    ROOT,
    '--target',
    'ES2022',
    '--lib',
    'ES2023',
    '--module',
    'ESNext',
    '--moduleResolution',
    'Bundler',
    '--types',
    'node',
    '--esModuleInterop',
    '--skipLibCheck',
    '--resolveJsonModule',
    '--isolatedModules',
    '--verbatimModuleSyntax',
    '--noCheck',
  ]);
  run(process.execPath, [join(ROOT, 'scripts', 'addImportExtensions.mjs'), OUT]);
  // Under node_modules, the package scope stops here: the output says it is ES modules itself.
  writeFileSync(join(OUT, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(OUT, 'bench'), { recursive: true });
  copyFileSync(join(ROOT, 'bench', 'alertFeeder.mjs'), join(OUT, 'bench', 'alertFeeder.mjs'));
  return join(OUT, entry.replace(/\.ts$/, '.js'));
}
