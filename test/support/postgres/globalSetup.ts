/**
 * Starts one throwaway PostgreSQL for the whole run of the store and e2e files (throwaway.ts), and
 * removes it at the end; each test makes a database of its own on it. Without PostgreSQL binaries,
 * or when it cannot start, the PostgreSQL half is skipped with one printed line saying why, unless
 * TOKENWATCH_TEST_POSTGRES=required (as CI sets it), when the run fails instead.
 */
import type { TestProject } from 'vitest/node';
import './provided';
import { findPostgresBinaries, startThrowawayPostgres, type PostgresBinaries } from './throwaway';

/** What the setup needs of vitest's project: a test hands it a stand-in. */
export type Provider = Pick<TestProject, 'provide'>;

export default function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  return startSharedPostgres(project, { find: findPostgresBinaries, env: process.env, print: (line) => process.stdout.write(line) });
}

/** The setup, with what it finds and where it prints passed in. */
export async function startSharedPostgres(
  project: Provider,
  options: { find: () => PostgresBinaries | null; env: Record<string, string | undefined>; print: (line: string) => void },
): Promise<(() => Promise<void>) | undefined> {
  const required = options.env.TOKENWATCH_TEST_POSTGRES === 'required';
  const skip = (reason: string): undefined => {
    if (required) throw new Error(`TOKENWATCH_TEST_POSTGRES=required, but PostgreSQL cannot start: ${reason}`);
    options.print(`PostgreSQL half of the store tests skipped: ${reason} (set TOKENWATCH_TEST_POSTGRES=required to make this a failure)\n`);
    project.provide('postgres', { adminUrl: null, binaries: null, skipped: reason });
    return undefined;
  };
  const binaries = options.find();
  if (binaries === null) return skip('no initdb and pg_ctl on PATH or under /usr/lib/postgresql/*/bin (Debian package: postgresql)');
  let server;
  try {
    server = await startThrowawayPostgres(binaries);
  } catch (error) {
    const text = error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 300) : String(error);
    return skip(`the server did not start (${text})`);
  }
  project.provide('postgres', { adminUrl: server.url(), binaries, skipped: null });
  return () => server.stop();
}
