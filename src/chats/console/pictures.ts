/**
 * A card's picture in the console: a terminal shows no image, so it is written under the
 * console's out folder and its path printed after the card's text. Answers (`/chart`) and alerts
 * (a price move's chart) both go through here, so a picture is never silently left out.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Card } from '../../cards/card';

/** Saves a card's picture under outDir; returns the path written, or null when it carries none. */
async function saveAttachment(card: Card, outDir: string): Promise<string | null> {
  if (!card.image) return null;
  await mkdir(outDir, { recursive: true });
  // The file name is ours (commands name their attachments), but keep it to safe characters anyway.
  const name = `${Date.now()}-${card.image.filename.replace(/[^A-Za-z0-9._-]/g, '_')}`;
  const path = join(outDir, name);
  await writeFile(path, card.image.data);
  return path;
}

/** The line printed after a card about its picture ("picture saved: data/out/…"); empty when it has none. */
export async function pictureLine(card: Card, outDir: string): Promise<string> {
  try {
    const saved = await saveAttachment(card, outDir);
    // A file that is no picture (a CSV export) is named as what it is.
    const what = card.image?.contentType.startsWith('image/') === false ? 'file' : 'picture';
    return saved === null ? '' : `${what} saved: ${saved}\n`;
  } catch (error) {
    // A full disk or a read-only data/ costs the picture, not the chat.
    return `picture not saved: ${error instanceof Error && 'code' in error ? String(error.code) : 'write failed'}\n`;
  }
}
