/**
 * The release before this one's schema, for the rolling-upgrade test: the commit before the one
 * that added the newest PostgreSQL migration (this commit when that migration is not committed
 * yet), its files taken out of git (`git archive`: no worktree is registered in the repository that
 * other work shares), and its dependencies laid beside them so that it runs as `npm start` would.
 *
 * Its node_modules is a folder of links into this checkout's, one per package of its lock file that
 * this checkout has installed at the same version; a package this checkout lacks (or holds at
 * another version) is fetched from the npm registry with npm's own client (`npm pack`) and
 * unpacked there, which works wherever `npm ci` does (CI runs it first). A full `npm ci` of it is
 * not an option: better-sqlite3's install downloads a prebuilt binary, which this workplace cannot.
 * A lacking package that has an install step of its own, or that another package of this checkout
 * would have to hold at another version, is refused with a line saying which.
 *
 * The tree is kept under the system's temporary folder by commit, so a later run starts at once and
 * offline; a run that finds a shallow clone without the commit is told why it cannot run.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Release {
  commit: string;
  /** Its PostgreSQL schema version: the number of its migrations. */
  schema: number;
}

async function git(root: string, ...args: string[]): Promise<string> {
  return (await run('git', args, { cwd: root, maxBuffer: 16 * 1024 * 1024 })).stdout.trim();
}

const MIGRATIONS = 'src/store/postgres/migrations';
const MIGRATION_FILE = /^(\d{3})_.+\.ts$/;

/** The release before this checkout's schema, or why it cannot be had here. */
export async function previousRelease(root: string): Promise<Release | { unavailable: string }> {
  if (!existsSync(join(root, '.git'))) return { unavailable: 'this checkout has no git history' };
  const latest = readdirSync(join(root, MIGRATIONS))
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .at(-1);
  if (latest === undefined) return { unavailable: `no migration in ${MIGRATIONS}` };
  const added = await git(root, 'log', '--diff-filter=A', '--format=%H', '-1', '--', `${MIGRATIONS}/${latest}`);
  const commit = added === '' ? await git(root, 'rev-parse', 'HEAD') : await git(root, 'rev-parse', `${added}^`).catch(() => '');
  const shallow = (await git(root, 'rev-parse', '--is-shallow-repository')) === 'true';
  if (commit === '') return { unavailable: `the commit before ${added.slice(0, 12)} is not in this ${shallow ? 'shallow ' : ''}clone` };
  const files = (await git(root, 'ls-tree', '--name-only', `${commit}:${MIGRATIONS}`)).split('\n');
  const schema = files.filter((name) => MIGRATION_FILE.test(name)).length;
  return { commit, schema };
}

interface LockEntry {
  version?: string;
  resolved?: string;
  link?: boolean;
  dev?: boolean;
  optional?: boolean;
  hasInstallScript?: boolean;
}

/** The version of the package installed at `path`, or null. */
function installedVersion(path: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/** Where node finds package `name` from inside the installed package at `from` (its own node_modules, then each folder up). */
function resolvedFrom(root: string, from: string, name: string): string | null {
  for (let folder = from; folder.startsWith(root); folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (folder === root) break;
  }
  return null;
}

async function unpack(name: string, version: string, into: string, scratch: string): Promise<void> {
  const { stdout } = await run('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', scratch], { cwd: scratch });
  const tarball = join(scratch, stdout.trim().split('\n').at(-1) ?? '');
  mkdirSync(into, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
}

/** Lays node_modules for the tree at `tree` from its lock file: links into `root`'s, and what `root` lacks fetched. */
async function layDependencies(root: string, tree: string): Promise<string[]> {
  const lock = JSON.parse(readFileSync(join(tree, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const entries = Object.entries(lock.packages)
    .filter(([path]) => path.startsWith('node_modules/'))
    .sort(([a], [b]) => a.split('node_modules/').length - b.split('node_modules/').length);
  /** Top-level packages linked into this checkout's, and those laid at all (linked or fetched). */
  const linked = new Set<string>();
  const laid = new Set<string>();
  const fetched: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'tokenwatch-pack-'));
  try {
    for (const [path, entry] of entries) {
      const parts = path
        .split('node_modules/')
        .slice(1)
        .map((part) => part.replace(/\/$/, ''));
      const name = parts.at(-1) as string;
      const top = parts[0] as string;
      const here = join(tree, path);
      if (parts.length === 1) {
        const ours = join(root, 'node_modules', name);
        if (entry.link === true || installedVersion(ours) === entry.version) {
          mkdirSync(dirname(here), { recursive: true });
          symlinkSync(entry.link === true ? join(tree, entry.resolved ?? '') : ours, here);
          linked.add(name);
          laid.add(name);
          continue;
        }
      } else if (linked.has(top)) {
        // Inside a package linked into this checkout's, node finds what this checkout's finds from there.
        const ours = resolvedFrom(root, join(root, ...parts.slice(0, -1).flatMap((part) => ['node_modules', part])), name);
        if (ours !== null && installedVersion(ours) === entry.version) continue;
        if (entry.dev === true || entry.optional === true) continue;
        throw new Error(`${path}@${entry.version} differs from what this checkout's ${top} finds; run the test after npm ci`);
      } else if (!laid.has(top)) continue;
      if (entry.dev === true || entry.optional === true) continue;
      if (entry.hasInstallScript === true)
        throw new Error(`${path}@${entry.version} is not installed here and has an install step of its own`);
      await unpack(name, entry.version ?? 'latest', here, scratch);
      laid.add(top);
      fetched.push(`${name}@${entry.version}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return fetched;
}

/**
 * The release's files and dependencies in a folder of their own, made once per commit. Returns the
 * folder and what had to be fetched for it (nothing on a later run).
 */
export async function prepareRelease(root: string, commit: string): Promise<{ dir: string; fetched: string[] }> {
  const dir = join(tmpdir(), `tokenwatch-release-${commit.slice(0, 12)}`);
  if (existsSync(join(dir, '.tokenwatch-ready'))) return { dir, fetched: [] };
  const work = mkdtempSync(`${dir}-`);
  try {
    await new Promise<void>((resolve, reject) => {
      const archive = spawn('git', ['archive', '--format=tar', commit], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      const untar = spawn('tar', ['-x', '-C', work], { stdio: ['pipe', 'inherit', 'inherit'] });
      archive.stdout.pipe(untar.stdin);
      archive.on('error', reject);
      untar.on('error', reject);
      untar.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git archive | tar ended with ${code}`))));
    });
    const fetched = await layDependencies(root, work);
    writeFileSync(join(work, '.tokenwatch-ready'), `${commit}\n`);
    // Another run may have made it meanwhile: theirs stays, this one goes.
    if (existsSync(dir)) rmSync(work, { recursive: true, force: true });
    else renameSync(work, dir);
    return { dir, fetched };
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}
