/**
 * deploy/tokenwatch.service, the example systemd unit: it starts what package.json's start:dist
 * starts, restarts on failure but not after a refused start, reads its settings from /etc/tokenwatch/tokenwatch.env, runs as a
 * user of its own with no privilege and a read-only system but for its data folder, and waits
 * longer than the bot's own shutdown timeout before killing it. MemoryDenyWriteExecute stays off:
 * V8's JIT writes the code it runs.
 *
 * The last cases hand the checks changed copies of the unit and package.json to show they object.
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHUTDOWN_TIMEOUT_S, readRepository, seconds, type Repository } from './support/repository';

/** `Key=value` lines per section; a key given twice keeps both values, in order. */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let section: Map<string, string[]> | null = null;
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#') || line.startsWith(';'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = pending + line;
    pending = '';
    const header = /^\[(.+)\]$/.exec(whole);
    if (header) {
      section = new Map();
      sections.set(header[1] ?? '', section);
      continue;
    }
    const at = whole.indexOf('=');
    if (section === null || at < 0) throw new Error(`not a setting of a section: ${whole}`);
    const key = whole.slice(0, at).trim();
    section.set(key, [...(section.get(key) ?? []), whole.slice(at + 1).trim()]);
  }
  return sections;
}

const TRUE = new Set(['1', 'yes', 'true', 'on']);

/** The settings the bot runs without, each with the value it must have. */
const HARDENING: Record<string, string> = {
  NoNewPrivileges: 'true',
  ProtectSystem: 'strict',
  ProtectHome: 'true',
  PrivateTmp: 'true',
  PrivateDevices: 'true',
  ProtectKernelTunables: 'true',
  ProtectControlGroups: 'true',
  RestrictSUIDSGID: 'true',
  LockPersonality: 'true',
};

function unitProblems(repository: Repository): string[] {
  const unit = parseUnit(repository.systemdUnit);
  const service = unit.get('Service') ?? new Map<string, string[]>();
  const last = (key: string) => service.get(key)?.at(-1);
  const problems: string[] = [];

  const start = (repository.scripts['start:dist'] ?? '').trim().split(/\s+/);
  const exec = (last('ExecStart') ?? '').split(/\s+/);
  // systemd wants the program's full path; the rest is start:dist word for word.
  if (
    start[0] !== 'node' ||
    !posix.isAbsolute(exec[0] ?? '') ||
    posix.basename(exec[0] ?? '') !== 'node' ||
    JSON.stringify(exec.slice(1)) !== JSON.stringify(start.slice(1))
  ) {
    problems.push(`ExecStart ${exec.join(' ')} is not start:dist (${start.join(' ')})`);
  }
  if (last('Restart') !== 'on-failure') problems.push(`Restart is ${last('Restart') ?? 'unset'}, not on-failure`);
  // The bot exits with 2 when a setting, the database or the API key is refused at start: no restart mends that.
  if (!(last('RestartPreventExitStatus') ?? '').split(/\s+/).includes('2')) problems.push('a refused start (exit code 2) is restarted');
  if (last('EnvironmentFile') !== '/etc/tokenwatch/tokenwatch.env')
    problems.push(`EnvironmentFile is ${last('EnvironmentFile') ?? 'unset'}`);
  const user = last('User');
  if (user === undefined || user === 'root' || user === '0') problems.push(`the service runs as ${user ?? 'root (no User)'}`);
  const workingDirectory = last('WorkingDirectory') ?? '';
  if (!posix.isAbsolute(workingDirectory)) problems.push(`WorkingDirectory is ${workingDirectory || 'unset'}`);

  if (last('KillSignal') !== 'SIGTERM') problems.push(`KillSignal is ${last('KillSignal') ?? 'unset'}, not SIGTERM`);
  const stopTimeout = last('TimeoutStopSec');
  if (stopTimeout === undefined || seconds(stopTimeout) <= DEFAULT_SHUTDOWN_TIMEOUT_S)
    problems.push(`TimeoutStopSec (${stopTimeout ?? 'unset'}) is not above the bot's shutdown timeout of ${DEFAULT_SHUTDOWN_TIMEOUT_S} s`);

  for (const [key, value] of Object.entries(HARDENING)) {
    const set = last(key);
    const same = value === 'true' ? set !== undefined && TRUE.has(set) : set === value;
    if (!same) problems.push(`${key} is ${set ?? 'unset'}, not ${value}`);
  }
  const families = (last('RestrictAddressFamilies') ?? '').split(/\s+/).sort();
  if (JSON.stringify(families) !== JSON.stringify(['AF_INET', 'AF_INET6', 'AF_UNIX']))
    problems.push(`RestrictAddressFamilies is ${families.join(' ') || 'unset'}`);
  const wx = last('MemoryDenyWriteExecute');
  if (wx !== undefined && TRUE.has(wx)) problems.push('MemoryDenyWriteExecute is on, and V8 cannot run its compiled code under it');

  // The one folder the service may write is the one its database is in (DATABASE_PATH from
  // Environment=, or the bot's default, both read from WorkingDirectory).
  const environment = Object.fromEntries(
    (service.get('Environment') ?? [])
      .flatMap((line) => line.split(/\s+/))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const database = posix.resolve(workingDirectory || '/', environment.DATABASE_PATH ?? 'data/tokenwatch.db');
  const writable = (service.get('ReadWritePaths') ?? []).flatMap((line) => line.split(/\s+/));
  if (!writable.includes(posix.dirname(database)))
    problems.push(`ReadWritePaths (${writable.join(' ') || 'unset'}) is not the database's folder ${posix.dirname(database)}`);

  if (unit.get('Install')?.get('WantedBy')?.at(-1) !== 'multi-user.target') problems.push('the unit is not wanted by multi-user.target');
  return problems;
}

const repository = readRepository();

describe('the systemd unit', () => {
  it('starts start:dist as an unprivileged user, hardened, and stops it with SIGTERM after the bot has had its time', () => {
    expect(unitProblems(repository)).toEqual([]);
  });

  const unit = (change: (text: string) => string): Repository => {
    const systemdUnit = change(repository.systemdUnit);
    if (systemdUnit === repository.systemdUnit) throw new Error('the change changed nothing');
    return { ...repository, systemdUnit };
  };

  const drifts: Array<[string, Repository, string]> = [
    [
      'start:dist changes',
      { ...repository, scripts: { ...repository.scripts, 'start:dist': 'node --max-old-space-size=768 dist/src/main.js' } },
      'ExecStart',
    ],
    ['ExecStart runs npm', unit((text) => text.replace(/^ExecStart=.*$/m, 'ExecStart=/usr/bin/npm run start:dist')), 'ExecStart'],
    ['it runs as root', unit((text) => text.replace(/^User=.*$/m, 'User=root')), 'runs as root'],
    ['ProtectSystem is full', unit((text) => text.replace(/^ProtectSystem=.*$/m, 'ProtectSystem=full')), 'ProtectSystem'],
    ['a hardening key is gone', unit((text) => text.replace(/^LockPersonality=.*\n/m, '')), 'LockPersonality'],
    [
      'MemoryDenyWriteExecute is on',
      unit((text) => text.replace(/^LockPersonality=true$/m, 'LockPersonality=true\nMemoryDenyWriteExecute=yes')),
      'MemoryDenyWriteExecute',
    ],
    [
      'it may open raw sockets',
      unit((text) => text.replace(/^RestrictAddressFamilies=.*$/m, 'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_PACKET')),
      'RestrictAddressFamilies',
    ],
    ['the stop timeout equals the bot’s', unit((text) => text.replace(/^TimeoutStopSec=.*$/m, 'TimeoutStopSec=10s')), 'TimeoutStopSec'],
    [
      'the database moves out of the writable folder',
      unit((text) => text.replace(/^Environment=DATABASE_PATH=.*$/m, 'Environment=DATABASE_PATH=/srv/tokenwatch/tokenwatch.db')),
      'ReadWritePaths',
    ],
    ['it restarts always', unit((text) => text.replace(/^Restart=.*$/m, 'Restart=always')), 'Restart'],
    ['a refused start is restarted', unit((text) => text.replace(/^RestartPreventExitStatus=.*\n/m, '')), 'exit code 2'],
  ];

  it.each(drifts)('objects when %s', (_, changed, expected) => {
    expect(unitProblems(changed).join('\n')).toContain(expected);
  });
});
