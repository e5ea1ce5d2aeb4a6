/** The bot's scripts run with the heap cap of src/heapLimit.ts, written out in package.json. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAP_LIMIT_FLAG } from '../src/heapLimit';

const scripts = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

describe('the heap cap', () => {
  it.each(['start', 'start:dist', 'bench'])('npm run %s passes it to node', (name) => {
    const script = scripts[name] ?? '';
    expect(script.startsWith('node ')).toBe(true);
    expect(script.split(' ')).toContain(HEAP_LIMIT_FLAG);
  });
});
