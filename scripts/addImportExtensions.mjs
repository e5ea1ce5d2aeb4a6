// Makes tsc's ES module output runnable by plain `node`: the sources import each other without
// extensions (`from './card'`), which bundlers and tsx accept and Node does not. Every relative
// specifier in the emitted JavaScript gets the file it names (`./card.js`, or `./dir/index.js`);
// one that names no emitted file stops the build, so a broken import never reaches dist/.
// Usage: node scripts/addImportExtensions.mjs dist
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'dist');
// `from './x'`, `import './x'`, `import('./x')`, `export * from './x'`.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\2/g;

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
  const out = text.replace(SPECIFIER, (_match, head, quote, specifier) => `${head}${quote}${withExtension(file, specifier)}${quote}`);
  if (out !== text) {
    writeFileSync(file, out);
    changed++;
  }
}
process.stdout.write(`import extensions added in ${changed} files under ${root}\n`);
