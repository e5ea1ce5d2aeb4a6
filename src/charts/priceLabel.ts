/**
 * Prices on an axis, written as the cards write them (src/cards/format.ts price(): 4 significant
 * digits, 0.0₅2867 for tiny ones). When ticks lie closer than 4 significant digits can tell apart
 * (a token at 1.00012 moving by 0.00001), the labels carry the digits the step needs, in the same
 * subscript notation, so two ticks never read the same.
 */
import { price } from '../text/format';

const SUBSCRIPT_DIGITS = '₀₁₂₃₄₅₆₇₈₉';
/** As the cards: from 4 zeros after the point, the zeros are counted in a subscript. */
const SUBSCRIPT_FROM_ZEROS = 4;
const MINUS = '\u2212';

function subscript(n: number): string {
  return String(n).replace(/\d/g, (digit) => SUBSCRIPT_DIGITS[Number(digit)] ?? digit);
}

/** Fixed-point text with a subscript for 4 or more zeros after the point: "0.000002867" → "0.0₅2867". */
export function fixedPrice(value: number, places: number): string {
  const text = Math.abs(value).toFixed(Math.min(100, Math.max(0, places)));
  const negative = value < 0 && /[1-9]/.test(text);
  const match = /^0\.(0+)(\d*)$/.exec(text);
  let body = text;
  if (match !== null && (match[1]?.length ?? 0) >= SUBSCRIPT_FROM_ZEROS && (match[2] ?? '') !== '') {
    body = `0.0${subscript(match[1]?.length ?? 0)}${match[2] ?? ''}`;
  } else if (/^\d{4,}/.test(body)) {
    const [integer = '', fraction] = body.split('.');
    body = integer.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
  }
  return `${negative ? MINUS : ''}${body}`;
}

/** Decimal places that tell multiples of `step` apart. */
function placesFor(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 4;
  let places = Math.max(0, -Math.floor(Math.log10(step)));
  // Steps like 2.5×10⁻⁵ need one more place than their power.
  while (places < 20 && Math.abs(Number(step.toFixed(places)) - step) > step * 1e-6) places += 1;
  return places;
}

/** Labels for ticks `step` apart: the cards' price() when it tells them apart, else enough places. */
export function priceLabels(values: readonly number[], step: number): string[] {
  const plain = values.map((value) => price(value));
  if (new Set(plain).size === plain.length) return plain;
  const places = placesFor(step);
  return values.map((value) => fixedPrice(value, places));
}
