/**
 * The typeface every picture is drawn in: DejaVu Sans, shipped in assets/fonts/ (its licence is
 * beside it) and registered under a name of our own, so the picture is the same on every machine
 * whatever fonts the system has. DejaVu covers the subscript digits of tiny prices (0.0₅2867) and
 * the minus sign U+2212 that the cards write.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';

/** The family name pictures ask for; not a system font's name, so no system font can stand in. */
export const CHART_FONT_FAMILY = 'TokenWatch Chart Sans';

const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'] as const;

let registered = false;

/**
 * assets/fonts/ of the project: two folders up from this file when run from the sources
 * (src/charts/), three from the build (dist/src/charts/); the nearest folder above that has it.
 */
function fontsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < 6; level += 1) {
    const candidate = join(dir, 'assets', 'fonts');
    if (existsSync(join(candidate, FONT_FILES[0]))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('The chart fonts were not found in assets/fonts/ above the program.');
}

/** Registers the bundled fonts once per process; throws when a file is missing, as a picture without them would differ. */
export function ensureChartFonts(): void {
  if (registered) return;
  const dir = fontsDir();
  for (const file of FONT_FILES) {
    if (GlobalFonts.registerFromPath(join(dir, file), CHART_FONT_FAMILY) === null) {
      throw new Error(`The chart font ${file} could not be loaded from assets/fonts/.`);
    }
  }
  registered = true;
}

/** A CSS font string in the bundled family. */
export function chartFont(sizePx: number, weight: 'normal' | 'bold' = 'normal'): string {
  return `${weight === 'bold' ? 'bold ' : ''}${sizePx}px "${CHART_FONT_FAMILY}"`;
}
