import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations/index';
import { openSqliteStore, StoreOpenError } from '../../src/store/sqliteStore';
import { tsNode } from '../support/processes';
import { chat, newFollow, tempDir, tokenSnapshot } from './helpers';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function temp() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t;
}

function openError(path: string): StoreOpenError {
  try {
    openSqliteStore(path, { busyTimeoutMs: 50 }).close();
  } catch (error) {
    if (error instanceof StoreOpenError) return error;
    throw error;
  }
  throw new Error('the store opened');
}

describe('opening the store', () => {
  it('creates the folder and the schema from nothing, in WAL mode', async () => {
    const { dir } = temp();
    const path = join(dir, 'nested', 'deeper', 'tokenwatch.db');
    const store = openSqliteStore(path);
    await store.close();
    expect(existsSync(path)).toBe(true);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    // SQLite's own tables (sqlite_sequence, made for an AUTOINCREMENT key) are not the schema's.
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name)
      .filter((name) => !name.startsWith('sqlite_'));
    expect(tables).toEqual([
      'action_keys',
      'call_chats',
      'calls',
      'chats',
      'events',
      'follows',
      'outbox',
      'store_market',
      'token_state',
      'wallet_state',
    ]);
    db.close();
  });

  it('re-opens an existing database without applying anything twice, keeping its data', async () => {
    const { path } = temp();
    const first = openSqliteStore(path);
    await first.follows.upsert(newFollow(chat('1'), 'TokenA'));
    await first.close();
    const second = openSqliteStore(path);
    expect(await second.follows.countForChat(chat('1'))).toBe(1);
    await second.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('upgrades a database of schema 1, keeping its rows', async () => {
    const { path } = temp();
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!.sql);
    old.pragma('user_version = 1');
    old
      .prepare(
        "INSERT INTO action_keys (key, platform, chat_id, command, args, expires_at) VALUES ('oldkey', 'telegram', '1', 'token', '[\"TokenA\"]', ?)",
      )
      .run(Date.now() + 60_000);
    old
      .prepare(
        "INSERT INTO follows (platform, chat_id, kind, address, added_by, added_at) VALUES ('telegram', '1', 'token', 'TokenA', 'u', 1)",
      )
      .run();
    old.close();
    const store = openSqliteStore(path);
    expect(await store.actionKeys.resolve('oldkey', chat('1'), new Date())).toEqual({
      status: 'ok',
      action: { command: 'token', args: ['TokenA'] },
    });
    expect(await store.follows.countForChat(chat('1'))).toBe(1);
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('backs up while open: the copy opens as a store of its own, with the same data', async () => {
    const { path, dir } = temp();
    const store = openSqliteStore(path);
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    void store.state.commitToken(tokenSnapshot('TokenA'), [], new Date(0));
    const copyPath = join(dir, 'backup', 'copy.db');
    mkdirSync(join(dir, 'backup'));
    await store.backup(copyPath);
    await store.follows.upsert(newFollow(chat('1'), 'TokenB'));
    const copy = openSqliteStore(copyPath);
    expect((await copy.follows.list(chat('1'), { offset: 0, limit: 10 })).follows.map((f) => f.address)).toEqual(['TokenA']);
    expect(await copy.state.token('TokenA')).toEqual(tokenSnapshot('TokenA'));
    await copy.close();
    await store.close();
  });

  it('refuses a file of garbage with one line naming the path, and leaves it byte for byte', () => {
    const { path, dir } = temp();
    const garbage = Buffer.from('this is not a database, just some text that happens to be here\n'.repeat(200));
    writeFileSync(path, garbage);
    const error = openError(path);
    expect(error.reason).toBe('corrupt');
    expect(error.message).toContain(path);
    expect(error.message).not.toContain('\n');
    expect(readFileSync(path).equals(garbage)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(join(dir, 'tokenwatch.db-journal'))).toBe(false);
  });

  it('refuses a database damaged inside (a page overwritten), and leaves it byte for byte', async () => {
    const { path } = temp();
    const store = openSqliteStore(path);
    await store.follows.upsertMany(Array.from({ length: 3000 }, (_, i) => newFollow(chat(String(i % 50)), `Token${i}`)));
    await store.close();
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
    expect(bytes.length / pageSize).toBeGreaterThan(20);
    // Scribble over a page in the middle of the follows table, header untouched.
    const damaged = Buffer.from(bytes);
    damaged.fill(0x5a, 10 * pageSize, 11 * pageSize);
    writeFileSync(path, damaged);
    const error = openError(path);
    expect(error.reason).toBe('corrupt');
    expect(error.message).toContain(path);
    expect(error.message).not.toContain('\n');
    expect(readFileSync(path).equals(damaged)).toBe(true);
  });

  it('refuses a database locked by another connection, naming the path, and changes nothing', async () => {
    const { path } = temp();
    const setup = openSqliteStore(path);
    await setup.follows.upsert(newFollow(chat('1'), 'TokenA'));
    await setup.close();
    const before = readFileSync(path);

    const holder = new Database(path);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const error = openError(path);
      expect(error.reason).toBe('locked');
      expect(error.message).toContain(path);
      expect(error.message).not.toContain('\n');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses the file while another process holds it, and opens it once that process was killed', async () => {
    const { path } = temp();
    const [command, args] = tsNode('test/store/support/holdStore.ts', path);
    const holder = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('open')) resolve();
        });
        holder.once('exit', (code) => reject(new Error(`the holder exited with ${String(code)}`)));
      });
      expect(openError(path).reason).toBe('locked');
    } finally {
      // No clean close: the lock must go with the process.
      holder.kill('SIGKILL');
      await exited;
    }
    const again = openSqliteStore(path);
    await again.follows.upsert(newFollow(chat('1'), 'TokenA'));
    expect(await again.follows.countForChat(chat('1'))).toBe(1);
    await again.close();
  }, 30_000);

  it('lets one process at a time use the file: a second store on it stops with "locked"', async () => {
    const { path } = temp();
    const first = openSqliteStore(path);
    try {
      expect(openError(path).reason).toBe('locked');
      // The first keeps working.
      await first.follows.upsert(newFollow(chat('1'), 'TokenA'));
    } finally {
      await first.close();
    }
    const again = openSqliteStore(path);
    expect(await again.follows.countForChat(chat('1'))).toBe(1);
    await again.close();
  });

  it('refuses a folder at the path with one line naming it', () => {
    const { dir } = temp();
    const error = openError(dir);
    expect(error.reason).toBe('unreadable');
    expect(error.message).toContain(dir);
    expect(error.message).not.toContain('\n');
  });

  it('refuses a database written by a newer schema, and one holding tables that are not ours', () => {
    const { path, dir } = temp();
    const newer = new Database(path);
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    const before = readFileSync(path);
    const error = openError(path);
    expect(error.reason).toBe('newer-schema');
    expect(error.message).toContain(path);
    expect(readFileSync(path).equals(before)).toBe(true);

    const foreignPath = join(dir, 'foreign.db');
    const foreign = new Database(foreignPath);
    foreign.exec('CREATE TABLE follows (something TEXT); INSERT INTO follows VALUES (1)');
    foreign.close();
    const foreignBefore = readFileSync(foreignPath);
    const foreignError = openError(foreignPath);
    expect(foreignError.reason).toBe('foreign');
    expect(foreignError.message).toContain(foreignPath);
    const check = new Database(foreignPath, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(0);
    expect(check.prepare('SELECT count(*) AS n FROM sqlite_master').get()).toEqual({ n: 1 });
    check.close();
    expect(readFileSync(foreignPath).equals(foreignBefore)).toBe(true);
  });
});
