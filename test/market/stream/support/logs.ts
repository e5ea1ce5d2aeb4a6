/** A real logger (with the project's redaction) writing into memory, to check what the client logs. */
import { createLogger, type Logger } from '../../../../src/log';

export function memoryLogger(): { logger: Logger; text: () => string; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const logger = createLogger('debug', { write: (chunk: string) => void chunks.push(chunk) });
  return {
    logger,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .flatMap((chunk) => chunk.split('\n'))
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
