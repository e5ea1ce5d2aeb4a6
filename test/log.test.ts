import { describe, expect, it } from 'vitest';
import { createLogger, registerSecret, scrubSecrets } from '../src/log';

function capture() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

describe('logger', () => {
  it('never writes a registered secret, in messages, fields or nested errors', () => {
    registerSecret('sk-live-0123456789');
    const { lines, stream } = capture();
    const log = createLogger('info', stream);
    log.info({ url: 'https://x.example/?key=sk-live-0123456789', apiKey: 'sk-live-0123456789', nested: { token: 'sk-live-0123456789' } }, 'calling with sk-live-0123456789');
    log.error({ err: new Error('upstream said sk-live-0123456789 is wrong') }, 'failed');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain('sk-live-0123456789');
    expect(lines[0]).toContain('[redacted]');
  });

  it('writes bigint fields as text instead of failing', () => {
    const { lines, stream } = capture();
    createLogger('info', stream).info({ supply: 10n ** 30n }, 'big');
    expect(lines[0]).toContain('1000000000000000000000000000000');
  });

  it('scrubs every occurrence', () => {
    registerSecret('abcd-secret');
    expect(scrubSecrets('abcd-secret and abcd-secret')).toBe('[redacted] and [redacted]');
  });
});
