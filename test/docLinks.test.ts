/**
 * Every relative link and anchor in README.md and docs/*.md leads somewhere: the file exists, and
 * an anchor (`#section`) names a heading of that page, spelled as GitHub makes heading anchors.
 * A file of the repository named in code (`src/x/y.ts`) exists too: a page that names a file
 * which moved tells the reader where to look no more.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const text = (heading[1] ?? '').replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The relative links of a page, outside code: `[text](target)` and `![alt](target)`. */
export function linksOf(markdown: string): string[] {
  const prose = markdown
    .replace(/```[\s\S]*?```/g, '')
    .replace(/^(?: {4}|\t).*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Files of the repository a page names in code spans: `src/…`, `test/…` and the like, with an extension. */
export function namedFilesOf(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`((?:src|test|bench|scripts|packages|commands|docs|deploy)\/[\w./-]+\.[a-z]{2,4})`/g)];
  return [...new Set(spans.map((match) => match[1] ?? ''))];
}

const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function broken(page: string): string[] {
  const problems: string[] = [];
  for (const target of linksOf(readFileSync(join(ROOT, page), 'utf8'))) {
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? page : normalize(join(dirname(page), decodeURIComponent(path)));
    if (!existsSync(join(ROOT, file))) {
      problems.push(`${page}: ${target} (no file ${file})`);
      continue;
    }
    if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(join(ROOT, file), 'utf8')).has(anchor)) {
      problems.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
  return problems;
}

describe('links in README.md and docs/', () => {
  it('makes anchors as GitHub does', () => {
    expect([...anchorsOf('# A `b` c\n## Node.js and the pins\n## A `b` c\n```\n# not a heading\n```')]).toEqual([
      'a-b-c',
      'nodejs-and-the-pins',
      'a-b-c-1',
    ]);
    expect(linksOf('[a](x.md#y) `[b](no.md)` ![c](p.png) [d](https://e.example)')).toEqual(['x.md#y', 'p.png']);
  });

  it('notices a link to nowhere', () => {
    expect(broken('README.md').length).toBe(0);
    const anchors = anchorsOf(readFileSync(join(ROOT, 'docs/operating.md'), 'utf8'));
    expect(anchors.has('endpoints')).toBe(true);
    expect(anchors.has('no-such-section')).toBe(false);
  });

  it.each(pages)('%s links only to files and headings that exist', (page) => {
    expect(broken(page)).toEqual([]);
  });

  it('reads the files a page names in code, and notices one that is not there', () => {
    expect(namedFilesOf('see `src/app.ts` and `test/x.test.ts`, not `npm test` or `src/`')).toEqual(['src/app.ts', 'test/x.test.ts']);
    expect(namedFilesOf('`src/no/such/file.ts`').filter((file) => !existsSync(join(ROOT, file)))).toEqual(['src/no/such/file.ts']);
  });

  it.each([...pages, 'packages/tmds-simulator/README.md'])('%s names only files that exist', (page) => {
    const missing = namedFilesOf(readFileSync(join(ROOT, page), 'utf8')).filter((file) => !existsSync(join(ROOT, file)));
    expect(missing).toEqual([]);
  });
});
