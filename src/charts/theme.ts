/**
 * Colours of every picture: a dark background as trading screens have, green for a candle that
 * closed at or above its open, red for one that closed below (the colours traders read without a
 * legend). Tests look for UP and DOWN pixels, so they are exact sRGB values.
 */
export const CHART_COLORS = {
  background: '#131722',
  grid: '#232735',
  axisText: '#9598a1',
  title: '#e6e8ee',
  subtitle: '#8a8f9c',
  up: '#26a69a',
  down: '#ef5350',
  /** Volume bars: the candle colours at partial opacity, so they read as secondary. */
  volumeAlpha: 0.45,
  lastPriceText: '#ffffff',
  line: '#4c8dff',
} as const;

/** The colour as [r, g, b], for tests and for blending. */
export function rgbOf(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}
