/**
 * The house rules of src/ (docs/development.md, "House rules and `npm run house`"), held with the
 * functions of the house report (scripts/house.ts): no line over 140 characters, no function over
 * 100 lines, and a floor table that still names folders of src/.
 *
 * Biome formats and lints, but it breaks no long string, template or comment, so the line limit is
 * held here. The function limit is the report's count: a function whole, from the line it starts on
 * to the line it ends on, signature and closing brace included. Biome's noExcessiveLinesPerFunction
 * counts fewer lines of the same function (its body), so 100 whole lines here is the house rule at
 * its strictest: a function within it is within Biome's limit too.
 */
import { describe, expect, it } from 'vitest';
import {
  FUNCTION_LIMIT,
  LINE_LIMIT,
  functionLengths,
  houseReport,
  longLines,
  platformMentions,
  withoutComments,
  type FunctionLength,
  type LongLine,
} from '../scripts/house';

const report = houseReport(process.cwd());

const where = (item: LongLine | FunctionLength) => `${item.path}:${item.line} (${'chars' in item ? item.chars : item.lines})`;

describe('the house rules of src/', () => {
  it(`has no line over ${LINE_LIMIT} characters`, () => {
    expect(report.longLines.map(where)).toEqual([]);
  });

  it(`has no function over ${FUNCTION_LIMIT} lines, counted whole`, () => {
    expect(report.functionsOverLimit.map(where)).toEqual([]);
  });

  it('has every floor name at least one folder or file that exists', () => {
    expect(report.floors.length).toBeGreaterThan(5);
    const empty = report.floors.filter((floor) => floor.units.length === floor.missing.length);
    expect(empty.map((floor) => `floor ${floor.floor}: ${floor.units.join(', ')}`)).toEqual([]);
  });
});

describe('the house report', () => {
  it('counts a function from its first line to its last, every kind of function, nested ones on their own', () => {
    const text = [
      'export function outer(): number {', // 1
      '  const inner = (a: number) => {', // 2
      '    return a;', // 3
      '  };', // 4
      '  return inner(1);', // 5
      '}', // 6
      'class Box {', // 7
      '  size(): number {', // 8
      '    return 1;', // 9
      '  }', // 10
      '}', // 11
      'const f = function () {};', // 12
    ].join('\n');
    const found = functionLengths({ path: 'src/x.ts', text }).map((fn) => [fn.name, fn.line, fn.lines]);
    expect(found).toEqual([
      ['outer', 1, 6],
      ['inner', 2, 3],
      ['Box.size', 8, 3],
      ['f', 12, 1],
    ]);
  });

  it('counts characters, not bytes, and only lines over the limit', () => {
    const text = `${'·'.repeat(LINE_LIMIT)}\n${'x'.repeat(LINE_LIMIT + 1)}\n`;
    expect(longLines({ path: 'src/x.ts', text })).toEqual([{ path: 'src/x.ts', line: 2, chars: LINE_LIMIT + 1 }]);
  });

  it('finds a platform named in code and strings, not in comments nor as the global console', () => {
    const files = [
      { path: 'src/a.ts', text: "// telegram\n/** Discord */\nconst p = 'telegram';\nconsole.log(p);\n" },
      { path: 'src/chats/telegram/b.ts', text: "const p = 'telegram';\n" },
      { path: 'src/c.ts', text: "import { x } from './chats/console/start';\n" },
    ];
    expect(
      withoutComments(files[0] ?? { path: '', text: '' })
        .split('\n')[0]
        ?.trim(),
    ).toBe('');
    const found = platformMentions(files).map(({ platform, files }) => [platform, files]);
    expect(found).toEqual([
      ['telegram', [{ path: 'src/a.ts', lines: [3] }]],
      ['discord', []],
      ['console', [{ path: 'src/c.ts', lines: [1] }]],
    ]);
  });
});
