/**
 * The layers of src/ point one way: cards import nothing from dispatch or query (the market's types
 * are fine), and no module reaches itself through its imports. Type-only imports count: a cycle of
 * types is still a wrong direction, and the next value import would make it a real one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

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
const name = (file: string) => relative(SRC, file);

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
