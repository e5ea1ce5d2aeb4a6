/**
 * The typeface every picture is drawn in: DejaVu Sans, shipped in assets/fonts/ (its licence is
 * beside it) and registered under a name of our own, so the picture is the same on every machine
 * whatever fonts the system has. DejaVu covers the subscript digits of tiny prices (0.0₅2867) and
 * the minus sign U+2212 that the cards write.
 */
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';

/** The family name pictures ask for; not a system font's name, so no system font can stand in. */
export const CHART_FONT_FAMILY = 'TokenWatch Chart Sans';

const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'] as const;

let registered = false;

/** Registers the bundled fonts once per process; throws when a file is missing, as a picture without them would differ. */
export function ensureChartFonts(): void {
  if (registered) return;
  for (const file of FONT_FILES) {
    const path = fileURLToPath(new URL(`../../assets/fonts/${file}`, import.meta.url));
    if (GlobalFonts.registerFromPath(path, CHART_FONT_FAMILY) === null) {
      throw new Error(`The chart font ${file} could not be loaded from assets/fonts/.`);
    }
  }
  registered = true;
}

/** A CSS font string in the bundled family. */
export function chartFont(sizePx: number, weight: 'normal' | 'bold' = 'normal'): string {
  return `${weight === 'bold' ? 'bold ' : ''}${sizePx}px "${CHART_FONT_FAMILY}"`;
}
