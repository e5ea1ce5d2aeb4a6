/**
 * JSON text with exact big integers. The vendor's streams write raw token amounts as JSON numbers,
 * and those pass 2^53 for a 9-decimal token: JSON.stringify cannot write a bigint, and a number
 * that large has already lost its last digits. So the values built for those messages hold such
 * amounts as bigint, and this writer puts their digits in the text as they are.
 */

/** A value this writer takes: JSON's own, plus bigint, written as the integer's digits. */
export type JsonValue = null | boolean | number | string | bigint | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** The JSON text of `value`; a bigint is written as a JSON number with every digit, anything else as JSON.stringify writes it. */
export function jsonText(value: JsonValue): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item: JsonValue) => jsonText(item)).join(',')}]`;
  const fields: string[] = [];
  for (const [key, field] of Object.entries(value)) fields.push(`${JSON.stringify(key)}:${jsonText(field)}`);
  return `{${fields.join(',')}}`;
}
