/**
 * What the deployment files must agree with, read once from the working tree into plain values, so
 * that a test can also hand the checks a changed copy (a renamed script, a missing file) and see
 * them object.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface Repository {
  dockerfile: string;
  dockerignore: string;
  compose: string;
  systemdUnit: string;
  /** package.json's scripts and the Node versions it supports. */
  scripts: Record<string, string>;
  engines: string;
  /** Where `npm run build` writes (tsconfig.build.json's outDir). */
  buildOutDir: string;
  /** The CI script (.ci/run). */
  ci: string;
  readme: string;
  /** Every file of the working tree but node_modules/, .git/ and the build's output, relative and `/` separated. */
  files: readonly string[];
}

export const ROOT = process.cwd();

function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/**
 * The build's output (git and .dockerignore keep it out) is no file of the repository, and it is
 * not even steady: `npm run build`, which the build test runs beside these, deletes and writes it.
 */
function listFiles(dir: string, skipped: ReadonlySet<string>, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) return prefix === '' && skipped.has(entry.name) ? [] : listFiles(join(dir, entry.name), skipped, `${path}/`);
    return [path];
  });
}

export function readRepository(): Repository {
  const pkg = JSON.parse(read('package.json')) as { scripts?: Record<string, string>; engines?: { node?: string } };
  // tsconfig files have comments: TypeScript's own reader takes them.
  const tsconfig = ts.parseConfigFileTextToJson('tsconfig.build.json', read('tsconfig.build.json'));
  const outDir: unknown = (tsconfig.config as { compilerOptions?: { outDir?: unknown } } | undefined)?.compilerOptions?.outDir;
  const buildOutDir = typeof outDir === 'string' ? outDir.replace(/^\.\//, '').replace(/\/$/, '') : '';
  return {
    dockerfile: read('Dockerfile'),
    dockerignore: read('.dockerignore'),
    compose: read('docker-compose.yml'),
    systemdUnit: read('deploy/tokenwatch.service'),
    scripts: pkg.scripts ?? {},
    engines: pkg.engines?.node ?? '',
    buildOutDir,
    ci: read('.ci/run'),
    readme: read('README.md'),
    files: listFiles(ROOT, new Set(['node_modules', '.git', ...(buildOutDir === '' ? [] : [buildOutDir])])),
  };
}

/** Whether `path` is a file of the repository or a folder holding some. */
export function exists(repository: Repository, path: string): boolean {
  const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
  return repository.files.some((file) => file === clean || file.startsWith(`${clean}/`));
}

/** The files `path` names: itself, or everything under the folder. */
export function filesUnder(repository: Repository, path: string): string[] {
  const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
  return repository.files.filter((file) => file === clean || file.startsWith(`${clean}/`));
}

/** The shutdown timeout the bot allows itself by default (SHUTDOWN_TIMEOUT): a stop must wait longer. */
export const DEFAULT_SHUTDOWN_TIMEOUT_S = 10;

/** `30s`, `1m30s`, `2min`, `45` (seconds) as seconds: the forms Docker Compose and systemd both take. */
export function seconds(text: string): number {
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const parts = [...value.matchAll(/(\d+)\s*(ms|s|sec|m|min|h)/g)];
  if (
    parts.length === 0 ||
    parts
      .map((part) => part[0])
      .join('')
      .replace(/\s/g, '') !== value.replace(/\s/g, '')
  )
    throw new Error(`not a duration: ${text}`);
  const unit: Record<string, number> = { ms: 0.001, s: 1, sec: 1, m: 60, min: 60, h: 3600 };
  return parts.reduce((sum, part) => sum + Number(part[1]) * (unit[part[2] ?? ''] ?? Number.NaN), 0);
}
