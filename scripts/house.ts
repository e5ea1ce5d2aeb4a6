/**
 * The house report of src/: the floors of the import graph, the longest functions and files, the
 * lines over the line limit, and where each chat platform is named outside its own folder.
 *
 *   npm run house            readable text
 *   npm run house -- --json  the same as JSON
 *
 * The house rules (docs/development.md): no line in src/ over LINE_LIMIT characters and no function
 * over FUNCTION_LIMIT lines. Biome formats to the line width and lints function length, but it
 * breaks no string, template or comment, and it counts a function's body; this report counts a
 * function whole, from its first line to its last, and every character of every line.
 * test/house.test.ts holds the rules with the functions exported here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { FLOORS } from '../test/support/floors';

/** Characters a line of src/ may hold (code points, so `·` or `’` count one, as an editor shows them). */
export const LINE_LIMIT = 140;
/** Lines a function of src/ may span, counted whole: from the line it starts on to the line it ends on. */
export const FUNCTION_LIMIT = 100;
/** The chat platforms, each with its folder src/chats/<platform>/. */
export const PLATFORMS = ['telegram', 'discord', 'console'] as const;
/** How many of the longest functions and files the report lists. */
const TOP = 10;

export interface SourceFile {
  /** Relative to the repository, with `/` separators (`src/store/sqliteFollows.ts`). */
  path: string;
  text: string;
}

export interface FunctionLength {
  path: string;
  /** 1-based line the function starts on. */
  line: number;
  lines: number;
  name: string;
}

export interface FileLength {
  path: string;
  lines: number;
}

export interface LongLine {
  path: string;
  line: number;
  chars: number;
}

export interface FloorReport {
  /** 0 for the lowest floor. */
  floor: number;
  /** Its folders (`store/`) and root files (`config.ts`) as FLOORS names them. */
  units: string[];
  /** The units that are not in src/ (moved or renamed since FLOORS was written). */
  missing: string[];
}

export interface PlatformMentions {
  platform: string;
  /** Files outside src/chats/<platform>/ whose code (comments left out) names the platform as a word, with the lines. */
  files: Array<{ path: string; lines: number[] }>;
}

export interface HouseReport {
  root: string;
  files: number;
  lineLimit: number;
  functionLimit: number;
  floors: FloorReport[];
  /** Folders and root files of src/ that no floor names. */
  withoutFloor: string[];
  longestFunctions: FunctionLength[];
  functionsOverLimit: FunctionLength[];
  longestFiles: FileLength[];
  longLines: LongLine[];
  platforms: PlatformMentions[];
}

/** Every .ts file under `dir` (declarations left out), sorted, as paths relative to `root`. */
export function readSources(root: string, dir = 'src'): SourceFile[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder)
      .sort()
      .flatMap((name) => {
        const path = join(folder, name);
        if (statSync(path).isDirectory()) return walk(path);
        return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
      });
  const start = resolve(root, dir);
  if (!existsSync(start)) return [];
  return walk(start).map((path) => ({ path: relative(root, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));
}

function parse(file: SourceFile): ts.SourceFile {
  return ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** `Name.` for a member of a class, nothing otherwise. */
function classPrefix(parent: ts.Node): string {
  return ts.isClassLike(parent) ? `${parent.name?.text ?? '(class)'}.` : '';
}

/** A function's name as a reader looks for it: its own, its method's (with the class), or the variable or property it is assigned to. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  const parent = node.parent;
  if (ts.isConstructorDeclaration(node)) return `${classPrefix(parent)}constructor`;
  if (node.name !== undefined && !ts.isComputedPropertyName(node.name)) return `${classPrefix(parent)}${node.name.getText()}`;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (ts.isPropertyDeclaration(parent)) return `${classPrefix(parent.parent)}${parent.name.getText()}`;
  return '(anonymous)';
}

/**
 * Every function of a file with its length: declarations, methods (constructors and accessors
 * included), arrow functions and function expressions, nested ones each on their own.
 */
export function functionLengths(file: SourceFile): FunctionLength[] {
  const source = parse(file);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      found.push({ path: file.path, line: first + 1, lines: last - first + 1, name: functionName(fn) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function linesOf(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The lines of a file longer than `limit` characters (code points). */
export function longLines(file: SourceFile, limit = LINE_LIMIT): LongLine[] {
  return linesOf(file.text).flatMap((text, i) => {
    const chars = [...text].length;
    return chars > limit ? [{ path: file.path, line: i + 1, chars }] : [];
  });
}

/** The text with every comment blanked out (line breaks kept, so line numbers still hold); strings and code stay. */
export function withoutComments(file: SourceFile): string {
  const source = parse(file);
  const text = file.text;
  const ranges = new Map<number, number>();
  const note = (list: ts.CommentRange[] | undefined) => {
    for (const range of list ?? []) ranges.set(range.pos, range.end);
  };
  // Comments sit in the trivia before or after a token: reading every token's finds them all.
  const visit = (node: ts.Node): void => {
    note(ts.getLeadingCommentRanges(text, node.pos));
    note(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  const chars = text.split('');
  for (const [pos, end] of ranges) for (let i = pos; i < end; i += 1) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
  return chars.join('');
}

/**
 * The files outside src/chats/<platform>/ whose code names the platform as a whole word, any case,
 * and on which lines. Code means what is left with the comments blanked out: identifiers, import
 * paths and strings; a word inside a longer identifier (`TelegramChat`) is not a whole word.
 */
export function platformMentions(files: readonly SourceFile[], platforms: readonly string[] = PLATFORMS): PlatformMentions[] {
  const code = files.map((file) => ({ path: file.path, lines: linesOf(withoutComments(file)) }));
  return platforms.map((platform) => {
    // Node's global `console` (console.log…) is no mention of the console chat.
    const word = new RegExp(`\\b${platform}\\b(?!\\.(?:log|info|warn|error|debug|trace|table|dir)\\b)`, 'i');
    const own = `src/chats/${platform}/`;
    const mentions = code
      .filter((file) => !file.path.startsWith(own))
      .map((file) => ({ path: file.path, lines: file.lines.flatMap((line, i) => (word.test(line) ? [i + 1] : [])) }))
      .filter((file) => file.lines.length > 0);
    return { platform, files: mentions };
  });
}

/** Each floor of FLOORS with its units, and those of its units src/ no longer has. */
export function floorReport(root: string, floors: readonly (readonly string[])[] = FLOORS, dir = 'src'): FloorReport[] {
  return floors.map((units, floor) => ({
    floor,
    units: [...units],
    missing: units.filter((unit) => !existsSync(join(root, dir, unit))),
  }));
}

/** The folders (`name/`) and root files of src/ that stand on no floor. */
function withoutFloor(root: string, floors: readonly (readonly string[])[], dir = 'src'): string[] {
  const named = new Set(floors.flat());
  const start = join(root, dir);
  if (!existsSync(start)) return [];
  return readdirSync(start)
    .sort()
    .map((name) => (statSync(join(start, name)).isDirectory() ? `${name}/` : name))
    .filter((unit) => (unit.endsWith('/') || (unit.endsWith('.ts') && !unit.endsWith('.d.ts'))) && !named.has(unit));
}

/** The whole report of `root`'s src/. */
export function houseReport(root = process.cwd()): HouseReport {
  const files = readSources(root);
  const functions = files.flatMap(functionLengths).sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path) || a.line - b.line);
  const fileLengths = files
    .map((file) => ({ path: file.path, lines: linesOf(file.text).length }))
    .sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path));
  return {
    root,
    files: files.length,
    lineLimit: LINE_LIMIT,
    functionLimit: FUNCTION_LIMIT,
    floors: floorReport(root),
    withoutFloor: withoutFloor(root, FLOORS),
    longestFunctions: functions.slice(0, TOP),
    functionsOverLimit: functions.filter((fn) => fn.lines > FUNCTION_LIMIT),
    longestFiles: fileLengths.slice(0, TOP),
    longLines: files.flatMap((file) => longLines(file)),
    platforms: platformMentions(files),
  };
}

/** The report as text for a terminal. */
export function formatReport(report: HouseReport): string {
  const out: string[] = [`House report of src/ (${report.files} files)`, ''];
  out.push('Floors (lowest first; a folder imports only from its floor or below):');
  for (const floor of report.floors) {
    const missing = floor.missing.length > 0 ? `   (not in src/: ${floor.missing.join(', ')})` : '';
    out.push(`  ${String(floor.floor).padStart(2)}  ${floor.units.join(', ')}${missing}`);
  }
  if (report.withoutFloor.length > 0) out.push(`  on no floor: ${report.withoutFloor.join(', ')}`);
  out.push('', `Longest functions (whole, first line to last; the limit is ${report.functionLimit}):`);
  for (const fn of report.longestFunctions) out.push(`  ${String(fn.lines).padStart(5)}  ${fn.path}:${fn.line}  ${fn.name}`);
  out.push(`  over ${report.functionLimit} lines: ${report.functionsOverLimit.length}`);
  out.push('', 'Longest files:');
  for (const file of report.longestFiles) out.push(`  ${String(file.lines).padStart(5)}  ${file.path}`);
  out.push('', `Lines over ${report.lineLimit} characters: ${report.longLines.length}`);
  for (const line of report.longLines) out.push(`  ${line.path}:${line.line}  (${line.chars})`);
  out.push('', 'Chat platforms named outside their own folder (as a word, any case, in code and strings; comments left out):');
  for (const { platform, files } of report.platforms) {
    out.push(`  ${platform}: ${files.length} file${files.length === 1 ? '' : 's'} outside src/chats/${platform}/`);
    for (const file of files) out.push(`    ${file.path}:${file.lines.join(',')}`);
  }
  return `${out.join('\n')}\n`;
}

const invoked = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invoked) {
  const report = houseReport();
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
}
