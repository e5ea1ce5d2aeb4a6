import { describe, expect, it } from 'vitest';
import { createLogger, logProcessWarnings, registerSecret, scrubSecrets } from '../src/log';

function capture() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

describe('logger', () => {
  it('never writes a registered secret, in messages, fields or nested errors', () => {
    registerSecret('sk-live-0123456789');
    const { lines, stream } = capture();
    const log = createLogger('info', stream);
    log.info(
      { url: 'https://x.example/?key=sk-live-0123456789', apiKey: 'sk-live-0123456789', nested: { token: 'sk-live-0123456789' } },
      'calling with sk-live-0123456789',
    );
    log.error({ err: new Error('upstream said sk-live-0123456789 is wrong') }, 'failed');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain('sk-live-0123456789');
    expect(lines[0]).toContain('[redacted]');
    expect(JSON.parse(lines[1] ?? '{}').err.message).toBe('upstream said [redacted] is wrong');
  });

  it('never writes a secret holding a quote or a backslash, raw or JSON-escaped', () => {
    const secret = 'sk-"quoted\\key-5f1a';
    const escaped = JSON.stringify(secret).slice(1, -1);
    expect(escaped).not.toBe(secret);
    registerSecret(secret);
    const { lines, stream } = capture();
    const log = createLogger('info', stream);
    log.info({ url: `https://x.example/?key=${secret}`, nested: { echo: [secret] }, [`header ${secret}`]: 1 }, `calling with ${secret}`);
    log.error({ err: new Error(`upstream said ${secret}`, { cause: new Error(`because ${secret}`) }) }, 'failed');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(escaped);
      expect(line).not.toContain(secret);
      // Read back, the line holds no trace of it either.
      expect(JSON.stringify(JSON.parse(line))).not.toContain(escaped);
    }
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      url: 'https://x.example/?key=[redacted]',
      nested: { echo: ['[redacted]'] },
      msg: 'calling with [redacted]',
    });
    expect(scrubSecrets(`{"k":${JSON.stringify(secret)}}`)).toBe('{"k":"[redacted]"}');
  });

  it('writes an error as its type, message and stack (not as {})', () => {
    const { lines, stream } = capture();
    createLogger('info', stream).error({ err: Object.assign(new TypeError('bad input'), { code: 'E_BAD' }) }, 'failed');
    expect(JSON.parse(lines[0] ?? '{}').err).toMatchObject({
      type: 'TypeError',
      message: 'bad input',
      code: 'E_BAD',
      stack: expect.stringContaining('TypeError: bad input'),
    });
  });

  it('writes a repeated object once instead of failing the line', () => {
    const { lines, stream } = capture();
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    createLogger('info', stream).info({ loop }, 'cyclic');
    expect(JSON.parse(lines[0] ?? '{}').loop).toEqual({ name: 'loop', self: '[circular]' });
  });

  it('writes bigint fields as text instead of failing', () => {
    const { lines, stream } = capture();
    createLogger('info', stream).info({ supply: 10n ** 30n }, 'big');
    expect(lines[0]).toContain('1000000000000000000000000000000');
  });

  it("writes process warnings as log lines, scrubbed, instead of Node's plain-text printer", async () => {
    registerSecret('warn-secret-9f3c');
    const { lines, stream } = capture();
    const printers = process.listeners('warning');
    expect(printers.length).toBeGreaterThan(0);
    const restore = logProcessWarnings(createLogger('info', stream));
    try {
      expect(process.listeners('warning')).toHaveLength(1);
      for (const printer of printers) expect(process.listeners('warning')).not.toContain(printer);
      // Listeners run in order: this one, added after the logger's, runs once the line is written.
      const handled = new Promise<void>((resolve) => process.once('warning', () => resolve()));
      process.emitWarning('the old way goes away; key warn-secret-9f3c', { type: 'DeprecationWarning', code: 'DEP0999' });
      await handled;
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
        level: 40,
        msg: 'process warning',
        warning: { type: 'DeprecationWarning', code: 'DEP0999', message: 'the old way goes away; key [redacted]' },
      });
    } finally {
      restore();
    }
    expect(process.listeners('warning')).toEqual(printers);
  });

  it('scrubs every occurrence', () => {
    registerSecret('abcd-secret');
    expect(scrubSecrets('abcd-secret and abcd-secret')).toBe('[redacted] and [redacted]');
  });
});
