/**
 * The container image can only be built where a Docker engine runs, so its recipe is held to the
 * repository here instead: the Dockerfile's steps are the commands CI and the README use, its start
 * command is package.json's `start:dist`, everything it copies exists and reaches the build context,
 * and the image runs as a user without privileges with its data in a volume, a health check, and a
 * stop signal the bot handles. docker-compose.yml and .dockerignore are held to the Dockerfile.
 *
 * Each check is a function of the repository's files returning what is wrong; the last cases hand
 * them changed copies (a script renamed, a file gone) to show that each one objects to drift.
 */
import { dirname, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerignoreMatcher, execForm, parseCopy, parseDockerfile, parseEnv, shellCommands, type Stage } from './support/dockerfile';
import { DEFAULT_SHUTDOWN_TIMEOUT_S, exists, filesUnder, readRepository, seconds, type Repository } from './support/repository';

const BASE_IMAGE = 'node:20-slim';
const BASE_NODE_MAJOR = 20;

/** The stage the image is: the last one. */
function finalStage(stages: Stage[]): Stage {
  const stage = stages.at(-1);
  if (stage === undefined) throw new Error('the Dockerfile has no FROM');
  return stage;
}

function argsOf(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);
}

function npmCommands(stage: Stage): string[] {
  return argsOf(stage, 'RUN')
    .flatMap(shellCommands)
    .filter((command) => command.startsWith('npm '));
}

function workdir(stages: Stage[], index: number): string {
  // A stage built on an earlier one starts in that one's WORKDIR.
  const stage = stages[index];
  if (stage === undefined) return '/';
  const own = argsOf(stage, 'WORKDIR').at(-1);
  if (own !== undefined) return own;
  const parent = stages.findIndex((candidate) => candidate.name === stage.base);
  return parent >= 0 && parent < index ? workdir(stages, parent) : '/';
}

function envOf(stage: Stage): Record<string, string> {
  return Object.assign({}, ...argsOf(stage, 'ENV').map(parseEnv)) as Record<string, string>;
}

function startCommand(repository: Repository): string[] {
  return (repository.scripts['start:dist'] ?? '').trim().split(/\s+/);
}

/** The image and every stage start from Node 20 slim, a version package.json supports. */
function baseProblems(repository: Repository): string[] {
  const stages = parseDockerfile(repository.dockerfile);
  const problems: string[] = [];
  stages.forEach((stage, index) => {
    const earlier = stages.slice(0, index).map((candidate) => candidate.name);
    if (stage.base !== BASE_IMAGE && !earlier.includes(stage.base))
      problems.push(`stage ${stage.name ?? index} starts from ${stage.base}, not ${BASE_IMAGE} or an earlier stage`);
  });
  // The image itself starts clean: the compilers of the dependency stages stay out of it.
  if (finalStage(stages).base !== BASE_IMAGE) problems.push(`the image starts from ${finalStage(stages).base}, not ${BASE_IMAGE}`);
  const lowest = /^>=?\s*(\d+)/.exec(repository.engines)?.[1];
  const below = /<\s*(\d+)/.exec(repository.engines)?.[1];
  if (lowest === undefined || Number(lowest) > BASE_NODE_MAJOR || (below !== undefined && Number(below) <= BASE_NODE_MAJOR)) {
    problems.push(`package.json's engines (${repository.engines}) do not take Node ${BASE_NODE_MAJOR}`);
  }
  return problems;
}

/**
 * The npm steps are exactly CI's install, the README's build, and the production install: one stage
 * runs `npm ci` then `npm run build`, another `npm ci --omit=dev`, and every script run exists.
 */
function stepProblems(repository: Repository): string[] {
  const stages = parseDockerfile(repository.dockerfile);
  const problems: string[] = [];
  const runs = stages.map(npmCommands).filter((commands) => commands.length > 0);
  const expected = [['npm ci', 'npm run build'], ['npm ci --omit=dev']];
  if (JSON.stringify([...runs].sort()) !== JSON.stringify([...expected].sort()))
    problems.push(`the npm steps per stage are ${JSON.stringify(runs)}, not ${JSON.stringify(expected)}`);
  const ciCommands = repository.ci.split('\n').map((line) => line.trim());
  if (!ciCommands.includes('npm ci')) problems.push('CI (.ci/run) no longer installs with `npm ci`');
  if (!repository.readme.includes('npm run build && npm run start:dist'))
    problems.push('the README no longer builds with `npm run build && npm run start:dist`');
  for (const command of runs.flat()) {
    const script = /^npm run (\S+)/.exec(command)?.[1];
    if (script !== undefined && repository.scripts[script] === undefined) problems.push(`\`${command}\` runs no script of package.json`);
  }
  return problems;
}

/** CMD is package.json's start:dist, whose program is the build's output of a source that exists. */
function startProblems(repository: Repository): string[] {
  const stages = parseDockerfile(repository.dockerfile);
  const problems: string[] = [];
  const script = repository.scripts['start:dist'];
  if (script === undefined) return ['package.json has no start:dist script'];
  const cmd = argsOf(finalStage(stages), 'CMD').at(-1);
  if (cmd === undefined) return ['the image has no CMD'];
  const argv = execForm(cmd);
  // The exec form, so that node is the container's first process and gets SIGTERM itself.
  if (argv === null) problems.push(`CMD is in shell form: ${cmd}`);
  else if (JSON.stringify(argv) !== JSON.stringify(startCommand(repository)))
    problems.push(`CMD ${JSON.stringify(argv)} is not start:dist (${script})`);
  if (!repository.readme.includes(`\`${script}\``)) problems.push(`the README does not give start:dist's command \`${script}\``);
  const program = startCommand(repository).find((arg) => arg.endsWith('.js')) ?? '';
  const prefix = `${repository.buildOutDir}/`;
  if (!program.startsWith(prefix)) problems.push(`start:dist runs ${program}, which is not in the build's output ${prefix}`);
  const source = program.slice(prefix.length).replace(/\.js$/, '.ts');
  if (!exists(repository, source)) problems.push(`start:dist runs ${program}, built from ${source}, which does not exist`);
  return problems;
}

/**
 * Every COPY takes what exists: from the context, a file of the repository that .dockerignore lets
 * through; from a stage, something that stage copied in or made (node_modules by `npm ci`, the
 * build's output by `npm run build`).
 */
function copyProblems(repository: Repository): string[] {
  const stages = parseDockerfile(repository.dockerfile);
  const ignored = dockerignoreMatcher(repository.dockerignore);
  const problems: string[] = [];
  // What each stage holds, as absolute paths.
  const holds = new Map<string, string[]>();
  stages.forEach((stage, index) => {
    const dir = workdir(stages, index);
    const held = [...(holds.get(stage.base) ?? [])];
    for (const instruction of stage.instructions) {
      if (instruction.keyword === 'COPY' || instruction.keyword === 'ADD') {
        const copy = parseCopy(instruction.args);
        const from = copy.flags.from;
        for (const source of copy.sources) {
          if (from === undefined) {
            if (!exists(repository, source)) problems.push(`COPY ${source}: no such file or folder in the repository`);
            const left = filesUnder(repository, source).filter(ignored);
            if (left.length > 0) problems.push(`COPY ${source}: .dockerignore keeps ${left.slice(0, 3).join(', ')} out of the context`);
          } else {
            const absolute = posix.resolve(
              workdir(
                stages,
                stages.findIndex((candidate) => candidate.name === from),
              ),
              source,
            );
            const fromHolds = holds.get(from);
            if (fromHolds === undefined) problems.push(`COPY --from=${from}: no earlier stage of that name`);
            else if (!fromHolds.some((path) => absolute === path || absolute.startsWith(`${path}/`)))
              problems.push(`COPY --from=${from} ${source}: that stage has no ${absolute}`);
          }
          const target = posix.resolve(dir, copy.destination);
          held.push(copy.sources.length === 1 && !copy.destination.endsWith('/') ? target : posix.join(target, posix.basename(source)));
        }
      }
      if (instruction.keyword === 'RUN') {
        const commands = shellCommands(instruction.args);
        if (commands.some((command) => command.startsWith('npm ci'))) held.push(posix.join(dir, 'node_modules'));
        if (commands.includes('npm run build')) held.push(posix.join(dir, repository.buildOutDir));
      }
    }
    if (stage.name !== null) holds.set(stage.name, held);
  });
  return problems;
}

/**
 * The image holds what the bot runs on: the build's output, production dependencies only,
 * package.json (its "type": "module" makes Node read dist/ as ES modules) and the chart fonts.
 */
function runtimeProblems(repository: Repository): string[] {
  const stages = parseDockerfile(repository.dockerfile);
  const image = finalStage(stages);
  const problems: string[] = [];
  const copies = argsOf(image, 'COPY').map(parseCopy);
  // A stage is named to be copied from; an unnamed one, or none, cannot be.
  const stageRunning = (command: string) => stages.find((stage) => npmCommands(stage).includes(command))?.name ?? '(no named stage)';
  const copied = (from: string | undefined, source: string) =>
    copies.some((copy) => copy.flags.from === from && copy.sources.some((path) => posix.basename(path) === source));
  if (!copied(stageRunning('npm run build'), repository.buildOutDir))
    problems.push(`the image does not copy ${repository.buildOutDir} from the stage that runs npm run build`);
  if (!copied(stageRunning('npm ci --omit=dev'), 'node_modules'))
    problems.push('the image does not copy node_modules from the stage that runs npm ci --omit=dev');
  if (!copied(undefined, 'package.json')) problems.push('the image does not copy package.json');
  if (!copied(undefined, 'assets')) problems.push('the image does not copy assets');
  if (!repository.files.some((file) => /^assets\/fonts\/[^/]+\.ttf$/.test(file))) problems.push('assets/fonts/ holds no .ttf font');
  return problems;
}

/**
 * The image runs as a user without privileges, keeps DATABASE_PATH in a volume that user owns, has
 * the operators' HTTP server on every interface with a health check on /healthz made with node, and
 * stops with SIGTERM.
 */
function imageProblems(repository: Repository): string[] {
  const stages = parseDockerfile(repository.dockerfile);
  const image = finalStage(stages);
  const problems: string[] = [];
  const env = envOf(image);
  const keywords = image.instructions.map((instruction) => instruction.keyword);

  const user = argsOf(image, 'USER').at(-1);
  const name = user?.split(':')[0] ?? '';
  if (user === undefined || name === 'root' || name === '0') problems.push(`the image runs as ${user ?? 'root (no USER)'}`);
  if (keywords.lastIndexOf('USER') > keywords.lastIndexOf('CMD')) problems.push('USER comes after CMD');

  const volumes = argsOf(image, 'VOLUME').flatMap((args) => execForm(args) ?? args.split(/\s+/));
  if (!volumes.includes('/app/data')) problems.push(`VOLUME is ${volumes.join(' ') || 'missing'}, not /app/data`);
  if (argsOf(image, 'WORKDIR').at(-1) !== '/app') problems.push('WORKDIR is not /app');
  const database = env.DATABASE_PATH ?? '';
  if (!volumes.includes(dirname(posix.resolve('/app', database))))
    problems.push(`DATABASE_PATH (${database || 'unset'}) is not in the volume`);
  if (!argsOf(image, 'RUN').some((run) => run.includes('chown') && run.includes(`${name}:`) && run.includes('/app/data')))
    problems.push(`/app/data is not given to ${name}`);

  if (env.HTTP_PORT !== '8080' || env.HTTP_HOST !== '0.0.0.0')
    problems.push(`HTTP_PORT and HTTP_HOST are ${env.HTTP_PORT ?? 'unset'} and ${env.HTTP_HOST ?? 'unset'}, not 8080 and 0.0.0.0`);
  if (!argsOf(image, 'EXPOSE').includes(env.HTTP_PORT ?? '')) problems.push('the image does not EXPOSE HTTP_PORT');
  const healthcheck = argsOf(image, 'HEALTHCHECK').at(-1) ?? '';
  const check = execForm(/CMD\s+(\[.*\])\s*$/.exec(healthcheck)?.[1] ?? '') ?? [];
  const script = check.slice(1).join(' ');
  if (check[0] !== 'node' || !script.includes('/healthz') || !script.includes('http://127.0.0.1:'))
    problems.push(`HEALTHCHECK does not ask /healthz on 127.0.0.1 with node: ${healthcheck || 'missing'}`);
  if (!script.includes('process.env.HTTP_PORT') && !script.includes(`:${env.HTTP_PORT ?? ''}/healthz`))
    problems.push('HEALTHCHECK does not ask at HTTP_PORT');

  if (argsOf(image, 'STOPSIGNAL').at(-1) !== 'SIGTERM')
    problems.push(`STOPSIGNAL is ${argsOf(image, 'STOPSIGNAL').at(-1) ?? 'missing'}, not SIGTERM`);
  return problems;
}

/** Secrets, the host's database and its host-built node_modules and dist/ stay out of the context. */
function dockerignoreProblems(repository: Repository): string[] {
  const ignored = dockerignoreMatcher(repository.dockerignore);
  return ['.env', 'node_modules/better-sqlite3/package.json', 'dist/src/main.js', 'data/tokenwatch.db', '.git/HEAD', 'coverage/index.html']
    .filter((path) => !ignored(path))
    .map((path) => `.dockerignore lets ${path} into the context`);
}

/**
 * docker-compose.yml, by structure (no YAML parser is among the dependencies): a service built from
 * this folder with an env_file, the image's volume as a named volume declared at the top level, a
 * stop grace period longer than the bot's shutdown timeout, and a PostgreSQL service and a
 * several-processes example (watchers and a gateway, README "Running several processes") ready to
 * be uncommented.
 */
function composeProblems(repository: Repository): string[] {
  const text = repository.compose;
  const volume = parseDockerfile(repository.dockerfile)
    .flatMap((stage) => argsOf(stage, 'VOLUME'))
    .at(-1);
  const problems: string[] = [];
  if (text.includes('\t')) problems.push('docker-compose.yml has a tab, which YAML refuses');
  if (!/^services:\s*$/m.test(text)) problems.push('docker-compose.yml has no services');
  if (!/^ {4}build: \.\s*$/m.test(text)) problems.push('no service is built from this folder');
  if (!/^ {4}env_file: \S+/m.test(text)) problems.push('no service reads an env_file');
  const named = new RegExp(`^ {6}- ([A-Za-z0-9][\\w.-]*):${volume ?? '/app/data'}\\s*$`, 'm').exec(text)?.[1];
  if (named === undefined) problems.push(`no named volume is mounted at the image's VOLUME (${volume ?? 'none'})`);
  else if (!new RegExp(`^volumes:\\s*\\n(?: {2}.*\\n|\\s*\\n)*? {2}${named}:`, 'm').test(text))
    problems.push(`the volume ${named} is not declared under the top-level volumes`);
  const grace = /^ {4}stop_grace_period: (\S+)/m.exec(text)?.[1];
  if (grace === undefined || seconds(grace) <= DEFAULT_SHUTDOWN_TIMEOUT_S)
    problems.push(`stop_grace_period (${grace ?? 'unset'}) is not above the bot's shutdown timeout of ${DEFAULT_SHUTDOWN_TIMEOUT_S} s`);
  if (!/^ {2}# postgres:\s*$/m.test(text) || !/^ {2}# {3}image: postgres:/m.test(text)) problems.push('no commented PostgreSQL service');
  // The several-processes example: watchers that send, and a gateway, each with its roles.
  if (!/^ {2}# {5}TOKENWATCH_ROLES: watcher,sender\s*$/m.test(text) || !/^ {2}# {5}TOKENWATCH_ROLES: discord,telegram\s*$/m.test(text))
    problems.push('no commented several-processes example');
  return problems;
}

const CHECKS = {
  base: baseProblems,
  steps: stepProblems,
  start: startProblems,
  copies: copyProblems,
  runtime: runtimeProblems,
  image: imageProblems,
  dockerignore: dockerignoreProblems,
  compose: composeProblems,
} satisfies Record<string, (repository: Repository) => string[]>;

const repository = readRepository();

describe('the Dockerfile, .dockerignore and docker-compose.yml', () => {
  it.each(Object.entries(CHECKS))('%s: agree with the repository', (_, check) => {
    expect(check(repository)).toEqual([]);
  });

  const dockerfile = (change: (text: string) => string) => ({ ...repository, dockerfile: change(repository.dockerfile) });
  const replace = (from: string | RegExp, to: string) => (text: string) => {
    const changed = text.replace(from, to);
    if (changed === text) throw new Error(`the Dockerfile has no ${String(from)}`);
    return changed;
  };

  const renameScript = (from: string, to: string): Repository => ({
    ...repository,
    scripts: Object.fromEntries(Object.entries(repository.scripts).map(([name, command]) => [name === from ? to : name, command])),
  });

  const drifts: Array<[string, keyof typeof CHECKS, Repository, string]> = [
    ['package.json renames start:dist', 'start', renameScript('start:dist', 'start:prod'), 'no start:dist'],
    [
      'start:dist changes its heap cap',
      'start',
      { ...repository, scripts: { ...repository.scripts, 'start:dist': 'node --max-old-space-size=1024 dist/src/main.js' } },
      'is not start:dist',
    ],
    ['the build writes elsewhere', 'start', { ...repository, buildOutDir: 'build' }, 'not in the build'],
    ['src/main.ts is gone', 'start', { ...repository, files: repository.files.filter((file) => file !== 'src/main.ts') }, 'does not exist'],
    ['package.json renames build', 'steps', renameScript('build', 'compile'), 'runs no script'],
    ['CI installs otherwise', 'steps', { ...repository, ci: repository.ci.replace(/^npm ci$/m, 'npm install') }, 'npm ci'],
    ['the Dockerfile installs with npm install', 'steps', dockerfile(replace(/^RUN npm ci$/m, 'RUN npm install')), 'npm steps'],
    ['the Dockerfile keeps the dev dependencies', 'steps', dockerfile(replace('npm ci --omit=dev', 'npm ci')), 'npm steps'],
    [
      'a copied folder is missing',
      'copies',
      { ...repository, files: repository.files.filter((file) => !file.startsWith('commands/')) },
      'COPY commands',
    ],
    ['.dockerignore drops the sources', 'copies', { ...repository, dockerignore: `${repository.dockerignore}\nsrc\n` }, 'keeps src/'],
    ['.dockerignore drops the fonts', 'copies', { ...repository, dockerignore: `${repository.dockerignore}\n**/*.ttf\n` }, '.ttf'],
    [
      'the image copies from a stage that has no such path',
      'copies',
      dockerfile(replace('/app/dist ./dist', '/app/build ./dist')),
      'that stage has no /app/build',
    ],
    [
      'node_modules with the dev dependencies',
      'runtime',
      dockerfile(replace('--from=production-dependencies /app/node_modules', '--from=build /app/node_modules')),
      'npm ci --omit=dev',
    ],
    ['no fonts', 'runtime', dockerfile(replace(/^COPY assets .*$/m, '')), 'assets'],
    ['no package.json', 'runtime', dockerfile(replace(/^COPY package.json \.\/$/m, '')), 'package.json'],
    ['a base other than Node 20 slim', 'base', dockerfile(replace(/^FROM node:20-slim$/m, 'FROM node:22')), 'not node:20-slim'],
    ['package.json drops Node 20', 'base', { ...repository, engines: '>=22 <24' }, 'do not take Node 20'],
    ['runs as root', 'image', dockerfile(replace(/^USER node$/m, 'USER root')), 'runs as root'],
    ['no USER', 'image', dockerfile(replace(/^USER node$/m, '')), 'runs as root'],
    ['no volume', 'image', dockerfile(replace(/^VOLUME .*$/m, '')), 'VOLUME'],
    [
      'the database outside the volume',
      'image',
      dockerfile(replace('DATABASE_PATH=/app/data/tokenwatch.db', 'DATABASE_PATH=/app/tokenwatch.db')),
      'not in the volume',
    ],
    ['no health check', 'image', dockerfile(replace(/^HEALTHCHECK[^\n]*\\\n[^\n]*\n/m, '')), 'HEALTHCHECK'],
    [
      'a health check with curl',
      'image',
      dockerfile(replace(/CMD \["node", "-e", .*\]$/m, 'CMD curl -f http://127.0.0.1:8080/healthz')),
      'HEALTHCHECK',
    ],
    ['another stop signal', 'image', dockerfile(replace('STOPSIGNAL SIGTERM', 'STOPSIGNAL SIGKILL')), 'STOPSIGNAL'],
    [
      '.dockerignore lets .env in',
      'dockerignore',
      { ...repository, dockerignore: repository.dockerignore.replace(/^\.env$/m, '') },
      '.env',
    ],
    [
      'compose stops as soon as the bot gives up',
      'compose',
      { ...repository, compose: repository.compose.replace(/stop_grace_period: \S+/, 'stop_grace_period: 10s') },
      'stop_grace_period',
    ],
    [
      'compose mounts the data elsewhere',
      'compose',
      { ...repository, compose: repository.compose.replace(':/app/data', ':/data') },
      'named volume',
    ],
  ];

  it.each(drifts)('objects when %s', (_, check, changed, expected) => {
    const problems = CHECKS[check](changed);
    expect(problems.join('\n')).toContain(expected);
  });
});
