/**
 * The layers of src/ point one way. Every folder of src/ (and every file at its root) stands on a
 * floor of FLOORS, and imports only from its own floor or the floors below; no two folders import
 * each other; no module reaches itself through its imports. Type-only imports count: a cycle of
 * types is still a wrong direction, and the next value import would make it a real one.
 * docs/layout.md says why each floor is where it is. The simulator is a package of its own
 * (packages/tmds-simulator/): it imports nothing of the bot, and the bot imports it by its name
 * from its composition root, its settings and its command line only (and the console chat, held below).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLOORS } from './support/floors';

const SRC = resolve('src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `./x`, `../y/z` and `./dir` (its index) resolved to a file of src/; other specifiers are packages. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier.replace(/\.(js|ts)$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(`${relative(SRC, from)} imports ${specifier}, which is no file`);
}

const IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => resolveImport(file, specifier)).filter((path): path is string => path !== null);
}

const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));

/** Every specifier a file imports, as written. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC)].map((match) => match[1] ?? '');
}

/** The simulator package: its own folder, its own name. */
const SIMULATOR = resolve('packages', 'tmds-simulator');
const SIMULATOR_NAME = 'tmds-simulator';

/**
 * Where the bot may import the simulator package: the composition root builds the built-in simulator
 * (and hands the console's /simulate what it drives), the settings name its wire styles, the command
 * line starts it (`npm run simulator`). The console chat names the simulator's types only
 * (TYPES_ONLY_IMPORTERS): no simulator code runs from it but what the root handed over.
 */
export const SIMULATOR_IMPORTERS: readonly string[] = ['app/', 'app.ts', 'config.ts', 'cli/', 'chats/console/'];
const TYPES_ONLY_IMPORTERS: readonly string[] = ['chats/console/'];

/** The statements of `text` importing a value (not `import type`) from the simulator package. */
export function valueImportsOfSimulator(text: string): string[] {
  const statements = text.match(/^import\s[^;]*?from\s+'tmds-simulator(?:\/[^']*)?';/gms) ?? [];
  return statements.filter((statement) => !/^import\s+type\s/.test(statement));
}

/** The files of src/ importing the simulator package from anywhere but SIMULATOR_IMPORTERS. */
export function strayImportsOfSimulator(files: Iterable<[string, string[]]>, allowed: readonly string[]): string[] {
  const wrong: string[] = [];
  for (const [file, specifiers] of files) {
    const imports = specifiers.some((specifier) => specifier === SIMULATOR_NAME || specifier.startsWith(`${SIMULATOR_NAME}/`));
    if (imports && !allowed.some((unit) => name(file) === unit || name(file).startsWith(unit))) wrong.push(name(file));
  }
  return wrong;
}
const name = (file: string) => relative(SRC, file);

/** The entry points: each runs its program when loaded, so no module may import one. */
export const ENTRY_POINTS: readonly string[] = ['main.ts', 'cli/'];

/** The unit of the floors a file belongs to: its folder under src/, or itself at the root. */
function unitOf(file: string): string {
  const parts = name(file).split('/');
  return parts.length === 1 ? (parts[0] ?? '') : `${parts[0]}/`;
}

/** The imports that break the floors, as "from → to (file → file)". */
export function wrongWayImports(edges: Iterable<[string, string[]]>, floors: readonly (readonly string[])[]): string[] {
  const floorOf = new Map(floors.flatMap((units, floor) => units.map((unit) => [unit, floor] as const)));
  const wrong: string[] = [];
  for (const [file, imports] of edges) {
    const from = unitOf(file);
    for (const target of imports) {
      const to = unitOf(target);
      if (from === to) continue;
      const a = floorOf.get(from);
      const b = floorOf.get(to);
      if (a === undefined || b === undefined) wrong.push(`${a === undefined ? from : to} has no floor in FLOORS`);
      else if (b > a) wrong.push(`${from} → ${to} (${name(file)} → ${name(target)})`);
    }
  }
  return [...new Set(wrong)];
}

/** The imports of an entry point from anywhere but its own unit, as "from → to (file → file)". */
export function entryPointImports(edges: Iterable<[string, string[]]>, entryPoints: readonly string[]): string[] {
  const wrong: string[] = [];
  for (const [file, imports] of edges) {
    for (const target of imports) {
      const to = unitOf(target);
      if (entryPoints.includes(to) && unitOf(file) !== to) wrong.push(`${unitOf(file)} → ${to} (${name(file)} → ${name(target)})`);
    }
  }
  return wrong;
}

/** The imports between two units that must not know each other, in either direction. */
export function importsBetween(edges: Iterable<[string, string[]]>, a: string, b: string): string[] {
  const wrong: string[] = [];
  for (const [file, imports] of edges) {
    const from = unitOf(file);
    if (from !== a && from !== b) continue;
    for (const target of imports) if (unitOf(target) === (from === a ? b : a)) wrong.push(`${name(file)} → ${name(target)}`);
  }
  return wrong;
}

describe('the import graph of src/', () => {
  it('is read from every source file', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(join(SRC, 'dispatch', 'dispatcher.ts'))).toContain(join(SRC, 'cards', 'errorCard.ts'));
  });

  it('keeps src/cards/ from importing src/dispatch/ or src/query/', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      if (!name(file).startsWith('cards/')) continue;
      for (const target of imports) if (/^(dispatch|query)\//.test(name(target))) wrong.push(`${name(file)} → ${name(target)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps src/store/ and src/market/ from importing each other', () => {
    // They share a floor, which alone would let one of them import the other.
    expect(importsBetween(graph, 'store/', 'market/')).toEqual([]);
    const wrong = importsBetween([[join(SRC, 'market', 'x.ts'), [join(SRC, 'store', 'y.ts'), join(SRC, 'log.ts')]]], 'store/', 'market/');
    expect(wrong).toEqual(['market/x.ts → store/y.ts']);
  });

  it('has no module import an entry point (main.ts, src/cli/)', () => {
    expect(entryPointImports(graph, ENTRY_POINTS)).toEqual([]);
  });

  it('imports the simulator package by its name, from the composition root, settings, command line and console only', () => {
    const files = sourceFiles(SRC).map((file) => [file, specifiersOf(file)] as [string, string[]]);
    expect(strayImportsOfSimulator(files, SIMULATOR_IMPORTERS)).toEqual([]);
    const users = files
      .filter(([, specifiers]) => specifiers.some((specifier) => specifier.startsWith(SIMULATOR_NAME)))
      .map(([file]) => name(file));
    expect(users).toEqual(expect.arrayContaining(['app/market.ts', 'config.ts', 'cli/simulator.ts']));
    const stray = strayImportsOfSimulator([[join(SRC, 'alerts', 'x.ts'), ['tmds-simulator/cli']]], SIMULATOR_IMPORTERS);
    expect(stray).toEqual(['alerts/x.ts']);
  });

  it('has the console chat import the simulator package for its types only', () => {
    const console = sourceFiles(SRC).filter((file) => TYPES_ONLY_IMPORTERS.some((unit) => name(file).startsWith(unit)));
    expect(console.length).toBeGreaterThan(0);
    expect(console.flatMap((file) => valueImportsOfSimulator(readFileSync(file, 'utf8')).map((line) => `${name(file)}: ${line}`))).toEqual(
      [],
    );
    expect(valueImportsOfSimulator("import type { Market } from 'tmds-simulator';\nimport { whaleBuy } from 'tmds-simulator';")).toEqual([
      "import { whaleBuy } from 'tmds-simulator';",
    ]);
  });

  it('has the simulator package import nothing of the bot: its own files, Node and its dependencies only', () => {
    const manifest = JSON.parse(readFileSync(join(SIMULATOR, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    // Its sources run with its dependencies; its tests have its development dependencies too.
    const running = Object.keys(manifest.dependencies ?? {});
    const testing = new Set([...running, ...Object.keys(manifest.devDependencies ?? {})]);
    const files = [...sourceFiles(join(SIMULATOR, 'src')), ...sourceFiles(join(SIMULATOR, 'test'))];
    expect(files.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const file of files) {
      const allowed = relative(SIMULATOR, file).startsWith('src') ? new Set(running) : testing;
      for (const specifier of specifiersOf(file)) {
        const outside = specifier.startsWith('.') && relative(SIMULATOR, resolve(dirname(file), specifier)).startsWith('..');
        const foreign = !specifier.startsWith('.') && !specifier.startsWith('node:') && !allowed.has(specifier.split('/')[0] ?? '');
        if (outside || foreign) wrong.push(`${relative(SIMULATOR, file)} → ${specifier}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names the two files of an import of an entry point', () => {
    const wrong = entryPointImports([[join(SRC, 'app.ts'), [join(SRC, 'cli', 'backup.ts')]]], ENTRY_POINTS);
    expect(wrong).toEqual(['app.ts → cli/ (app.ts → cli/backup.ts)']);
  });

  it('has every folder import only from its floor or below', () => {
    expect(wrongWayImports(graph, FLOORS)).toEqual([]);
  });

  it('names the two folders of a wrong-way import', () => {
    // store/ importing chats/ (two floors up): the check must catch it and say where.
    const wrong = wrongWayImports([[join(SRC, 'store', 'x.ts'), [join(SRC, 'chats', 'y.ts')]]], FLOORS);
    expect(wrong).toEqual(['store/ → chats/ (store/x.ts → chats/y.ts)']);
  });

  it('has no two folders that import each other', () => {
    const edges = new Set<string>();
    for (const [file, imports] of graph)
      for (const target of imports) if (unitOf(file) !== unitOf(target)) edges.add(`${unitOf(file)}|${unitOf(target)}`);
    const both = [...edges].filter((edge) => {
      const [a, b] = edge.split('|');
      return a !== undefined && b !== undefined && a < b && edges.has(`${b}|${a}`);
    });
    expect(both).toEqual([]);
  });

  it('has no cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      path.push(file);
      for (const target of graph.get(file) ?? []) {
        const seen = state.get(target);
        if (seen === 'open') cycles.push([...path.slice(path.indexOf(target)), target].map(name).join(' → '));
        else if (seen === undefined) visit(target);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
