/**
 * Reads a Dockerfile into its stages and instructions, and a .dockerignore into a matcher, as far
 * as the deployment tests need: comments, line continuations, exec (JSON) and shell forms, flags
 * such as --from, and Docker's ignore patterns (`*`, `**`, `?`, `!` exceptions, last match wins).
 */

export interface Instruction {
  /** Upper case: FROM, RUN, COPY… */
  keyword: string;
  /** Everything after the keyword, continuation lines joined with a space. */
  args: string;
}

export interface Stage {
  /** The name after AS, or null. */
  name: string | null;
  /** The image or earlier stage it starts from. */
  base: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // Docker drops comment lines, inside a continued instruction too.
    if (line.startsWith('#')) continue;
    if (line === '' && pending === '') continue;
    const continued = line.endsWith('\\');
    pending += `${pending === '' ? '' : ' '}${continued ? line.slice(0, -1).trim() : line}`;
    if (continued) continue;
    const match = /^(\S+)\s*(.*)$/.exec(pending);
    if (match) instructions.push({ keyword: (match[1] ?? '').toUpperCase(), args: (match[2] ?? '').trim() });
    pending = '';
  }
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [base = '', as, name] = words(instruction.args).filter((word) => !word.startsWith('--'));
      stages.push({ base, name: as?.toUpperCase() === 'AS' && name !== undefined ? name : null, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (stage === undefined) throw new Error(`${instruction.keyword} before any FROM`);
    stage.instructions.push(instruction);
  }
  return stages;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== '');
}

/** The exec form's array (`["node", "x.js"]`), or null for the shell form. */
export function execForm(args: string): string[] | null {
  if (!args.startsWith('[')) return null;
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((item): item is string => typeof item === 'string'))
    throw new Error(`not an array of strings: ${args}`);
  return parsed;
}

/** A COPY or ADD: its flags (`from`, `chown`…), sources and destination. */
export interface Copy {
  flags: Record<string, string>;
  sources: string[];
  destination: string;
}

export function parseCopy(args: string): Copy {
  const parts = words(args);
  const flags: Record<string, string> = {};
  while (parts[0]?.startsWith('--') === true) {
    const [key = '', value = 'true'] = (parts.shift() ?? '').slice(2).split('=');
    flags[key] = value;
  }
  const rest = parts.join(' ');
  const paths = execForm(rest) ?? words(rest);
  const destination = paths.at(-1);
  if (destination === undefined || paths.length < 2) throw new Error(`COPY needs a source and a destination: ${args}`);
  return { flags, sources: paths.slice(0, -1), destination };
}

/** ENV's variables, in both forms (`ENV A=1 B=2` and the older `ENV A 1`). */
export function parseEnv(args: string): Record<string, string> {
  const unquote = (value: string) => value.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
  const parts = words(args);
  if (parts.length > 0 && !(parts[0] ?? '').includes('=')) return { [parts[0] ?? '']: unquote(parts.slice(1).join(' ')) };
  return Object.fromEntries(
    parts.map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at), unquote(part.slice(at + 1))];
    }),
  );
}

/** The commands a RUN's shell form chains with `&&` or `;`, each trimmed. */
export function shellCommands(args: string): string[] {
  return args
    .split(/&&|;/)
    .map((command) => command.trim().replace(/\s+/g, ' '))
    .filter((command) => command !== '');
}

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? '';
    if (char === '*' && pattern[i + 1] === '*') {
      // `**/` is any number of folders, none included; a trailing `**` is anything.
      source += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * Whether .dockerignore keeps `path` (relative to the context, `/` separated) out of the build
 * context. A pattern that matches a folder matches everything in it; the last pattern that matches
 * decides, so a `!` pattern can let a path back in.
 */
export function dockerignoreMatcher(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = (negated ? line.slice(1) : line).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      return { negated, regExp: globToRegExp(pattern) };
    });
  return (path) => {
    const segments = path.split('/');
    const prefixes = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const rule of rules) {
      if (prefixes.some((prefix) => rule.regExp.test(prefix))) ignored = !rule.negated;
    }
    return ignored;
  };
}
