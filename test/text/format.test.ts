import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  age,
  compact,
  duration,
  formatTokenAmount,
  fromSmallestUnit,
  percent,
  price,
  relativeTime,
  shortAddress,
  sol,
  solFromLamports,
  toDecimalString,
  usd,
} from '../../src/text/format';
import { explorerAccountUrl, explorerTokenUrl, explorerTxUrl } from '../../src/cards/explorer';
import { parseDuration } from '../../src/duration';
import { safeUrl } from '../../src/text/sanitize';

/** A shown number read back exactly: value = mantissa × 10^exp. */
interface Exact {
  mantissa: bigint;
  exp: number;
}

const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const SUFFIX_EXP: Record<string, number> = { '': 0, K: 3, M: 6, B: 9, T: 12 };

function glyphNumber(s: string, glyphs: string): number {
  return Number([...s].map((c) => glyphs.indexOf(c)).join(''));
}

/** Reads what the formatters print ("−$1.23K", "0.0₅2867 SOL", "1.2×10¹⁵", "+4.5%") back. */
function readExact(shown: string): Exact {
  let s = shown.replace(/ SOL$/, '').replace(/%$/, '');
  let negative = false;
  if (s.startsWith('−')) {
    negative = true;
    s = s.slice(1);
  } else if (s.startsWith('+')) {
    s = s.slice(1);
  }
  s = s.replace(/^\$/, '').replace(/,/g, '');
  let exp = 0;
  const scientific = /^(.*)×10([⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/.exec(s);
  if (scientific) {
    s = scientific[1] ?? '';
    exp += glyphNumber(scientific[2] ?? '', SUPERSCRIPTS);
  }
  const suffix = /^(.*?)([KMBT]?)$/.exec(s);
  s = suffix?.[1] ?? s;
  exp += SUFFIX_EXP[suffix?.[2] ?? ''] ?? 0;
  const tiny = /^0\.0([₀-₉]+)(\d+)$/.exec(s);
  if (tiny) s = `0.${'0'.repeat(glyphNumber(tiny[1] ?? '', SUBSCRIPTS))}${tiny[2] ?? ''}`;
  if (!/^\d+(\.\d+)?$/.test(s)) throw new Error(`unreadable number: ${shown}`);
  const [integer = '', fraction = ''] = s.split('.');
  const mantissa = BigInt(integer + fraction);
  return { mantissa: negative ? -mantissa : mantissa, exp: exp - fraction.length };
}

function readNumber(shown: string): number {
  const { mantissa, exp } = readExact(shown);
  return Number(`${mantissa}e${exp}`);
}

/** A double's exact shortest decimal, as the formatters read it. */
function exactOf(n: number): Exact {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(n.toExponential());
  const fraction = match?.[3] ?? '';
  return { mantissa: BigInt(`${match?.[1] ?? ''}${match?.[2] ?? '0'}${fraction}`), exp: Number(match?.[4] ?? 0) - fraction.length };
}

const absBig = (v: bigint) => (v < 0n ? -v : v);

/**
 * Whether `shown` is within `relative` (a fraction, as [numerator, denominator]) of `exact`, or
 * within `absolute` of it; computed exactly, so numbers near the double range do not overflow.
 */
function isClose(shown: Exact, exact: Exact, relative: readonly [bigint, bigint], absolute?: Exact): boolean {
  const scale = Math.min(shown.exp, exact.exp, absolute?.exp ?? Infinity);
  const at = (e: Exact) => e.mantissa * 10n ** BigInt(e.exp - scale);
  const diff = absBig(at(shown) - at(exact));
  if (diff * relative[1] <= absBig(at(exact)) * relative[0]) return true;
  return absolute !== undefined && diff <= absBig(at(absolute));
}

const HALF_PERCENT = [5n, 1000n] as const;

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const nonZeroFinite = finite.filter((n) => n !== 0);

const NUMBER_FORMATTERS = {
  compact,
  price,
  usd,
  sol,
  percent: (n: number) => percent(n),
  signedPercent: (n: number) => percent(n, { signed: true }),
};

describe('number formatters', () => {
  for (const [name, format] of Object.entries(NUMBER_FORMATTERS)) {
    it(`${name}: any finite number gives readable text`, () => {
      fc.assert(
        fc.property(finite, (n) => {
          const shown = format(n);
          expect(shown.length).toBeGreaterThan(0);
          expect(shown).not.toMatch(/NaN|undefined|Infinity|e[+-]|-/);
        }),
      );
    });
  }

  it('show NaN and infinities as a dash', () => {
    for (const format of Object.values(NUMBER_FORMATTERS)) {
      expect(format(Number.NaN)).toBe('—');
      expect(format(Number.POSITIVE_INFINITY)).toBe('—');
      expect(format(Number.NEGATIVE_INFINITY)).toBe('—');
    }
  });

  it('compact: examples', () => {
    expect(compact(0)).toBe('0');
    expect(compact(-0)).toBe('0');
    expect(compact(999)).toBe('999');
    expect(compact(12.345)).toBe('12.3');
    expect(compact(1234)).toBe('1.23K');
    expect(compact(1200)).toBe('1.2K');
    expect(compact(999_499)).toBe('999K');
    expect(compact(999_500)).toBe('1M');
    expect(compact(3.4e6)).toBe('3.4M');
    expect(compact(5.6e9)).toBe('5.6B');
    expect(compact(7.8e12)).toBe('7.8T');
    expect(compact(1.234e15)).toBe('1.23×10¹⁵');
    expect(compact(-1234)).toBe('−1.23K');
    expect(compact(0.000002867)).toBe('0.0₅287');
  });

  it('compact, price, usd and sol read back within their rounding (3 significant digits or better)', () => {
    fc.assert(
      fc.property(nonZeroFinite, (n) => {
        for (const format of [compact, price, usd, sol]) {
          const shown = format(n);
          expect(isClose(readExact(shown), exactOf(n), HALF_PERCENT), shown).toBe(true);
          expect(shown.startsWith('−')).toBe(n < 0);
        }
      }),
    );
  });

  it('price keeps 4 significant digits below 10¹⁵', () => {
    fc.assert(
      fc.property(
        nonZeroFinite.filter((n) => Math.abs(n) < 1e15),
        (n) => {
          expect(isClose(readExact(price(n)), exactOf(n), [5n, 10_000n]), price(n)).toBe(true);
        },
      ),
    );
  });

  it('compact reads back within 5% for |n| ≥ 1 (the brief’s bound)', () => {
    fc.assert(
      fc.property(
        finite.filter((n) => Math.abs(n) >= 1),
        (n) => {
          expect(isClose(readExact(compact(n)), exactOf(n), [5n, 100n])).toBe(true);
        },
      ),
    );
  });

  it('compact keeps order and its magnitude suffixes are monotone', () => {
    const rank = (shown: string) => (shown.includes('×10') ? 5 : ['', 'K', 'M', 'B', 'T'].indexOf(/[KMBT]?$/.exec(shown)?.[0] ?? ''));
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e300, noNaN: true }), fc.double({ min: 1, max: 1e300, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(readNumber(compact(low))).toBeLessThanOrEqual(readNumber(compact(high)));
        expect(rank(compact(low))).toBeLessThanOrEqual(rank(compact(high)));
      }),
    );
  });

  it('price: tiny prices in subscript notation, others with 4 significant digits', () => {
    expect(price(0.000002867)).toBe('0.0₅2867');
    expect(price(0.00001234)).toBe('0.0₄1234');
    expect(price(0.0001234)).toBe('0.0001234');
    expect(price(0.0000099999)).toBe('0.0₄1');
    expect(price(0.5)).toBe('0.5');
    expect(price(1.23456)).toBe('1.235');
    expect(price(1.005)).toBe('1.005');
    expect(price(67234.12)).toBe('67,234');
    expect(price(-0.000002867)).toBe('−0.0₅2867');
  });

  it('price: the subscript counts the zeros after the point', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 300 }), fc.integer({ min: 1000, max: 9999 }), (exp, digits) => {
        const n = Number(`${digits}e-${exp + 3}`);
        const zeros = exp - 1;
        const shown = price(n);
        const match = /^0\.0([₀-₉]+)(\d+)$/.exec(shown);
        expect(match, shown).not.toBeNull();
        expect(glyphNumber(match?.[1] ?? '', SUBSCRIPTS)).toBe(zeros);
        expect(String(digits).replace(/0+$/, '')).toBe(match?.[2]);
      }),
    );
  });

  it('usd: examples', () => {
    expect(usd(0)).toBe('$0');
    expect(usd(1.23)).toBe('$1.23');
    expect(usd(12.3)).toBe('$12.30');
    expect(usd(1.005)).toBe('$1.01');
    expect(usd(0.5)).toBe('$0.50');
    expect(usd(0.1234)).toBe('$0.1234');
    expect(usd(0.999999)).toBe('$1.00');
    expect(usd(999.999)).toBe('$1K');
    expect(usd(1.2e6)).toBe('$1.2M');
    expect(usd(0.000002867)).toBe('$0.0₅2867');
    expect(usd(-4.5)).toBe('−$4.50');
  });

  it('sol: a " SOL" suffix, amounts compact from 1000', () => {
    expect(sol(1.5)).toBe('1.5 SOL');
    expect(sol(12345)).toBe('12.3K SOL');
    expect(sol(0.000002867)).toBe('0.0₅2867 SOL');
    expect(solFromLamports(1_500_000_000n)).toBe('1.5 SOL');
    expect(solFromLamports(2_867n)).toBe('0.0₅2867 SOL');
  });

  it('percent: examples', () => {
    expect(percent(12.34)).toBe('12.3%');
    expect(percent(4.5, { signed: true })).toBe('+4.5%');
    expect(percent(-4.5, { signed: true })).toBe('−4.5%');
    expect(percent(-4.5)).toBe('−4.5%');
    expect(percent(1.234)).toBe('1.23%');
    expect(percent(100)).toBe('100%');
    expect(percent(0)).toBe('0%');
    expect(percent(0, { signed: true })).toBe('0%');
    expect(percent(0.004)).toBe('<0.01%');
    expect(percent(0.004, { signed: true })).toBe('+<0.01%');
    expect(percent(-0.004)).toBe('−<0.01%');
    expect(percent(2_469.8, { signed: true })).toBe('+2,470%');
    expect(percent(15_234)).toBe('15,234%');
    expect(percent(-999.96)).toBe('−1,000%');
    expect(percent(1_234_567.4)).toBe('1,234,567%');
    expect(percent(2e15)).toBe('2×10¹⁵%');
  });

  it('percent: reads back within its rounding, tiny values aside', () => {
    fc.assert(
      fc.property(
        finite.filter((n) => Math.abs(n) >= 0.01),
        (n) => {
          const shown = percent(n, { signed: true });
          expect(shown.startsWith(n < 0 ? '−' : '+')).toBe(true);
          expect(isClose(readExact(shown), exactOf(n), HALF_PERCENT, { mantissa: 5n, exp: -3 }), shown).toBe(true);
        },
      ),
    );
  });
});

describe('token amounts', () => {
  const pow10 = (k: number) => 10n ** BigInt(k);

  it('examples', () => {
    expect(formatTokenAmount(123_456n, 3)).toBe('123.5');
    expect(formatTokenAmount(1_234_567n, 0)).toBe('1.23M');
    expect(formatTokenAmount(10n ** 30n, 0)).toBe('1×10³⁰');
    expect(formatTokenAmount(10n ** 30n, 30)).toBe('1');
    expect(formatTokenAmount(-2_867n, 9)).toBe('−0.0₅2867');
    expect(formatTokenAmount(0n, 6)).toBe('0');
    expect(formatTokenAmount(999_999n, 3)).toBe('1K');
    expect(formatTokenAmount(1n, -1)).toBe('—');
    expect(formatTokenAmount(1n, 1.5)).toBe('—');
    expect(toDecimalString(-123_450n, 3)).toBe('-123.45');
    expect(toDecimalString(5n, 3)).toBe('0.005');
    expect(fromSmallestUnit(123_456_789n, 6)).toBe(123.456789);
  });

  it('agrees with exact bigint arithmetic', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 45n), max: 10n ** 45n }), fc.integer({ min: 0, max: 30 }), (amount, decimals) => {
        const shown = formatTokenAmount(amount, decimals);
        const { mantissa, exp } = readExact(shown);
        // Both on one scale: shown = mantissa × 10^exp, exact = amount × 10^-decimals.
        const scale = Math.min(exp, -decimals);
        const shownScaled = mantissa * pow10(exp - scale);
        const exactScaled = amount * pow10(-decimals - scale);
        // 3 significant digits from 1000 up, 4 below: at most half a unit in the last digit.
        expect(absBig(shownScaled - exactScaled) * 1000n).toBeLessThanOrEqual(absBig(exactScaled) * 5n);
        expect(mantissa === 0n).toBe(amount === 0n);
        expect(mantissa < 0n).toBe(amount < 0n);
      }),
    );
  });

  it('toDecimalString is exact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: 0, max: 30 }), (amount, decimals) => {
        const text = toDecimalString(amount, decimals);
        const [integer = '', fraction = ''] = text.split('.');
        expect(fraction.length).toBeLessThanOrEqual(decimals);
        expect(BigInt(integer.replace('-', '') + fraction.padEnd(decimals, '0')) * (text.startsWith('-') ? -1n : 1n)).toBe(amount);
      }),
    );
  });
});

describe('times', () => {
  const now = new Date('2024-05-01T12:00:00Z');
  const t = now.getTime() / 1000;

  it('relativeTime', () => {
    expect(relativeTime(t, now)).toBe('just now');
    expect(relativeTime(t - 30, now)).toBe('just now');
    expect(relativeTime(t - 300, now)).toBe('5m ago');
    expect(relativeTime(t - 3 * 3600 - 59, now)).toBe('3h ago');
    expect(relativeTime(t - 2 * 86_400, now)).toBe('2d ago');
    expect(relativeTime(t - 400 * 86_400, now)).toBe('1y ago');
    expect(relativeTime(t + 300, now)).toBe('in 5m');
    expect(relativeTime(new Date(now.getTime() - 60_000), now)).toBe('1m ago');
    expect(relativeTime(new Date(Number.NaN), now)).toBe('—');
  });

  it('age', () => {
    expect(age(t - (3 * 86_400 + 4 * 3600 + 5), now)).toBe('3d 4h');
    expect(age(t - 3 * 86_400, now)).toBe('3d');
    expect(age(t - (4 * 3600 + 12 * 60), now)).toBe('4h 12m');
    expect(age(t - 12 * 60, now)).toBe('12m');
    expect(age(t - 30, now)).toBe('<1m');
    expect(age(t + 3600, now)).toBe('<1m');
    expect(age(t - (2 * 365 + 15) * 86_400, now)).toBe('2y 15d');
    expect(age(Number.NaN, now)).toBe('—');
  });

  it('duration and parseDuration', () => {
    expect([60, 900, 3600, 14_400, 86_400, 604_800, 5400, 0].map(duration)).toEqual(['1m', '15m', '1h', '4h', '1d', '1w', '1h30m', '0s']);
    expect(duration(-1)).toBe('—');
    expect(parseDuration('15m')).toBe(900);
    expect(parseDuration('4H')).toBe(14_400);
    expect(parseDuration('1d')).toBe(86_400);
    expect(parseDuration('2w')).toBe(1_209_600);
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('1h 30m')).toBe(5400);
    expect(parseDuration('1.5h')).toBe(5400);
    expect(parseDuration('15 min')).toBe(900);
    for (const bad of ['', ' ', '0', '0m', '-5m', '+5m', 'abc', '5x', '1e3', '0.5s', 'm', '5m garbage', '99999999999999999999', '1h-30m']) {
      expect(parseDuration(bad), bad).toBeNull();
    }
  });

  it('parseDuration reads back what duration writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), (secs) => {
        expect(parseDuration(duration(secs))).toBe(secs);
      }),
    );
  });

  it('parseDuration never throws and gives whole positive seconds or null', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const secs = parseDuration(s);
        if (secs !== null) expect(Number.isSafeInteger(secs) && secs > 0).toBe(true);
      }),
    );
  });
});

describe('addresses', () => {
  const SOL_ADDRESS = 'So11111111111111111111111111111111111111112';
  const EVM_ADDRESS = `0x${'aB'.repeat(20)}`;
  const SIGNATURE = '5'.repeat(88);

  it('shortAddress', () => {
    expect(shortAddress(SOL_ADDRESS)).toBe('So11…1112');
    expect(shortAddress('short')).toBe('short');
    expect(shortAddress('123456789012')).toBe('123456789012');
  });

  it('explorer links', () => {
    expect(explorerTokenUrl(SOL_ADDRESS, 1399811149)).toBe(`https://solscan.io/token/${SOL_ADDRESS}`);
    expect(explorerTokenUrl(SOL_ADDRESS)).toBe(`https://solscan.io/token/${SOL_ADDRESS}`);
    expect(explorerAccountUrl(SOL_ADDRESS)).toBe(`https://solscan.io/account/${SOL_ADDRESS}`);
    expect(explorerTxUrl(SIGNATURE, 1399811149)).toBe(`https://solscan.io/tx/${SIGNATURE}`);
    expect(explorerTokenUrl(EVM_ADDRESS, 1)).toBe(`https://etherscan.io/token/${EVM_ADDRESS}`);
    expect(explorerAccountUrl(EVM_ADDRESS, 1)).toBe(`https://etherscan.io/address/${EVM_ADDRESS}`);
    expect(explorerTxUrl(`0x${'1'.repeat(64)}`, 1)).toBe(`https://etherscan.io/tx/0x${'1'.repeat(64)}`);
    expect(explorerTokenUrl(EVM_ADDRESS)).toBeNull();
    expect(explorerTokenUrl(EVM_ADDRESS, 999_999)).toBeNull();
    expect(explorerTokenUrl(EVM_ADDRESS, 1399811149)).toBeNull();
    expect(explorerTokenUrl(SOL_ADDRESS, 1)).toBeNull();
    expect(explorerTokenUrl('not an address')).toBeNull();
    expect(explorerTokenUrl(`${SOL_ADDRESS}/../x`)).toBeNull();
    expect(explorerTxUrl('abc')).toBeNull();
  });

  it('explorer links are always safe http(s) links or null', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.integer()), (s, chainId) => {
        for (const url of [explorerTokenUrl(s, chainId), explorerAccountUrl(s, chainId), explorerTxUrl(s, chainId)]) {
          if (url !== null) expect(safeUrl(url)).toBe(url);
        }
      }),
    );
  });
});
