// Makes tsc's ES module output runnable by plain `node`: the sources import each other without
// extensions (`from './card'`), which bundlers and tsx accept and Node does not. Every relative
// specifier in the emitted JavaScript gets the file it names (`./card.js`, or `./dir/index.js`);
// one that names no emitted file stops the build, so a broken import never reaches dist/.
// An import of a workspace package of packages/ by its name (`from 'tmds-simulator'`) becomes the
// relative path of the file its `exports` names, as emitted under dist/packages/: dist/ then runs
// without the package's link in node_modules/, and without its TypeScript.
// Usage: node scripts/addImportExtensions.mjs dist
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? 'dist');
// `from './x'`, `import './x'`, `import('./x')`, `export * from './x'`.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\2/g;
// The same with a package's name: `from 'name'`, `from 'name/sub'`, `from '@scope/name/sub'`.
const BARE = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])((?:@[\w.-]+\/)?[\w.-]+(?:\/[\w./-]+)?)\2/g;

/**
 * The workspace packages (packages/NAME/, beside dist/), each export as the file emitted for it:
 * specifier (`name`, `name/sub`) → absolute path of the .js under the output's packages/NAME/.
 */
function workspaceExports() {
  // The repository's packages/ (this script's ../packages), wherever the output goes: dist/, or a
  // bench's build under node_modules/.cache/.
  const packages = fileURLToPath(new URL('../packages', import.meta.url));
  const targets = new Map();
  if (!existsSync(packages)) return targets;
  for (const dir of readdirSync(packages)) {
    const manifest = join(packages, dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, exports } = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const [key, target] of Object.entries(typeof exports === 'string' ? { '.': exports } : (exports ?? {}))) {
      if (typeof target !== 'string' || !target.endsWith('.ts')) continue;
      const specifier = key === '.' ? name : `${name}/${key.replace(/^\.\//, '')}`;
      targets.set(specifier, join(root, 'packages', dir, target.replace(/\.ts$/, '.js')));
    }
  }
  return targets;
}

const WORKSPACE = workspaceExports();

function workspacePath(file, specifier) {
  const target = WORKSPACE.get(specifier);
  if (target === undefined) return specifier;
  if (!existsSync(target)) throw new Error(`${file}: import "${specifier}" names ${target}, which was not emitted`);
  const path = relative(dirname(file), target).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

function withExtension(file, specifier) {
  if (/\.(m?js|json)$/.test(specifier)) return specifier;
  const base = resolve(dirname(file), specifier);
  if (existsSync(`${base}.js`)) return `${specifier}.js`;
  if (existsSync(join(base, 'index.js'))) return `${specifier.replace(/\/$/, '')}/index.js`;
  throw new Error(`${file}: import "${specifier}" names no emitted file`);
}

let changed = 0;
for (const file of jsFiles(root)) {
  const text = readFileSync(file, 'utf8');
  const out = text
    .replace(SPECIFIER, (_match, head, quote, specifier) => `${head}${quote}${withExtension(file, specifier)}${quote}`)
    .replace(BARE, (_match, head, quote, specifier) => `${head}${quote}${workspacePath(file, specifier)}${quote}`);
  if (out !== text) {
    writeFileSync(file, out);
    changed++;
  }
}
process.stdout.write(`import extensions added in ${changed} files under ${root}\n`);
