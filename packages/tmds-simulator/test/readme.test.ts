/**
 * The package's README keeps up with the package: every flag of the help, every control, every
 * REST endpoint and stream is named there, its relative links lead to files, and the entry points
 * it names are the manifest's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../src/cli';
import { CONTROL_NAMES } from '../src/controls';
import { REST_ENDPOINTS, WS_STREAMS } from '../src/endpoints';

const PACKAGE = new URL('../', import.meta.url);
const README = readFileSync(new URL('README.md', PACKAGE), 'utf8');
const MANIFEST = JSON.parse(readFileSync(new URL('package.json', PACKAGE), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  exports: Record<string, string>;
};

describe('the README', () => {
  it('names every flag of the help', () => {
    const flags = [...USAGE.matchAll(/^\s+(--[a-z-]+)/gm)].map((match) => match[1] ?? '');
    expect(flags.length).toBeGreaterThan(8);
    for (const flag of flags) expect(README, flag).toContain(`\`${flag}`);
  });

  it('names every control, REST endpoint and stream', () => {
    for (const name of [...CONTROL_NAMES, ...REST_ENDPOINTS, ...WS_STREAMS]) expect(README, name).toContain(`\`${name}\``);
  });

  it('links only to files that exist', () => {
    const links = [...README.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(existsSync(new URL(link, PACKAGE)), link).toBe(true);
  });

  it('names the bin and the entry points of the manifest, which exist', () => {
    expect(Object.keys(MANIFEST.bin)).toEqual([MANIFEST.name]);
    for (const target of [...Object.values(MANIFEST.bin), ...Object.values(MANIFEST.exports)]) {
      expect(existsSync(new URL(target, PACKAGE)), target).toBe(true);
    }
    for (const entry of Object.keys(MANIFEST.exports).filter((key) => key !== './package.json')) {
      expect(README).toContain(`\`${entry === '.' ? MANIFEST.name : `${MANIFEST.name}/${entry.slice(2)}`}\``);
    }
  });
});
