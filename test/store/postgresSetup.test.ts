/**
 * The global setup that starts the run's PostgreSQL: without binaries it says in one line that the
 * PostgreSQL half is skipped and why, and lets the run go on; with TOKENWATCH_TEST_POSTGRES=required
 * it fails instead; binaries that cannot start a server are one line too.
 */
import { describe, expect, it } from 'vitest';
import type { SharedPostgres } from '../support/postgres/provided';
import { startSharedPostgres, type Provider } from '../support/postgres/globalSetup';

function recorder(): { project: Provider; provided: SharedPostgres[]; printed: string[]; print: (line: string) => void } {
  const provided: SharedPostgres[] = [];
  const printed: string[] = [];
  const project: Provider = {
    provide: ((key: string, value: SharedPostgres) => {
      if (key === 'postgres') provided.push(value);
    }) as Provider['provide'],
  };
  return { project, provided, printed, print: (line) => printed.push(line) };
}

describe('the PostgreSQL global setup', () => {
  it('skips the PostgreSQL half in one printed line when the binaries are missing', async () => {
    const { project, provided, printed, print } = recorder();
    const teardown = await startSharedPostgres(project, { find: () => null, env: {}, print });
    expect(teardown).toBeUndefined();
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(
      /^PostgreSQL half of the store tests skipped: no initdb and pg_ctl on PATH or under \/usr\/lib\/postgresql\/\*\/bin .*\n$/,
    );
    expect(provided).toEqual([{ adminUrl: null, binaries: null, skipped: expect.stringContaining('no initdb') }]);
  });

  it('fails instead when TOKENWATCH_TEST_POSTGRES=required', async () => {
    const { project, provided, printed, print } = recorder();
    await expect(startSharedPostgres(project, { find: () => null, env: { TOKENWATCH_TEST_POSTGRES: 'required' }, print })).rejects.toThrow(
      /^TOKENWATCH_TEST_POSTGRES=required, but PostgreSQL cannot start: no initdb/,
    );
    expect(printed).toEqual([]);
    expect(provided).toEqual([]);
  });

  it('says why in one line when the binaries found cannot start a server', async () => {
    const { project, provided, printed, print } = recorder();
    await startSharedPostgres(project, { find: () => ({ initdb: '/nonexistent/initdb', pgCtl: '/nonexistent/pg_ctl' }), env: {}, print });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^PostgreSQL half of the store tests skipped: the server did not start \(.+\)/);
    expect(printed[0]?.trimEnd()).not.toContain('\n');
    expect(provided[0]?.adminUrl).toBeNull();
  });
});
