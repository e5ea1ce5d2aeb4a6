/** Reads a PNG back into pixels, so tests look at the picture a chat would show. */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { rgbOf } from '../../src/charts/theme';

export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number];
}

/** Decodes PNG bytes; fails unless they start with the PNG signature. */
export async function decodePng(png: Uint8Array): Promise<Pixels> {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((byte, i) => png[i] === byte)) throw new Error('not a PNG');
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  return {
    width: image.width,
    height: image.height,
    at(x, y) {
      const i = (Math.round(y) * image.width + Math.round(x)) * 4;
      return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
    },
  };
}

export function isColor(pixel: [number, number, number], hex: string, tolerance = 3): boolean {
  const want = rgbOf(hex);
  return pixel.every((value, i) => Math.abs(value - (want[i] ?? 0)) <= tolerance);
}

/** How many pixels of a rectangle have the colour. */
export function countColor(pixels: Pixels, hex: string, x0 = 0, y0 = 0, x1 = pixels.width, y1 = pixels.height): number {
  let n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(pixels.height, y1); y += 1) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(pixels.width, x1); x += 1) if (isColor(pixels.at(x, y), hex)) n += 1;
  }
  return n;
}
