/**
 * Reads the repository's Dockerfile, so the tests run what the image would run (its layout, environment, command and
 * health check) as plain processes: there is no container engine on the machines the suite runs on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const repositoryRoot = path.resolve(import.meta.dirname, '..');

export type Copy = { from: string | undefined; source: string; destination: string };
/** `base`: the earlier stage this one starts from (`FROM manifests AS build`), whose files it holds. */
export type Stage = { name: string | undefined; base: string | undefined; copies: Copy[]; runs: string[] };
export type Dockerfile = {
  stages: Stage[];
  /** The final stage's environment, in order. */
  environment: Record<string, string>;
  workingDirectory: string;
  command: string[];
  healthCheck: string[];
  user: string | undefined;
};

/** Joins continued lines and drops comments: one instruction per entry. */
function instructions(text: string): string[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** `KEY=value KEY2=value2` as ENV writes it (no quoting is used in ours). */
function environmentOf(argument: string): Record<string, string> {
  return Object.fromEntries(
    argument
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => {
        const equals = pair.indexOf('=');
        if (equals === -1) throw new Error(`ENV ${pair}: only KEY=value is read here`);
        return [pair.slice(0, equals), pair.slice(equals + 1)];
      }),
  );
}

/** The exec form only (`["node", ...]`): a shell form would put a shell between the signal and the server. */
function execForm(argument: string, what: string): string[] {
  const parsed: unknown = JSON.parse(argument);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) {
    throw new Error(`${what} must be in exec form, ["node", ...]`);
  }
  return parsed;
}

export function readDockerfile(file = path.join(repositoryRoot, 'Dockerfile')): Dockerfile {
  const stages: Stage[] = [];
  let environment: Record<string, string> = {};
  let workingDirectory = '/';
  let command: string[] = [];
  let healthCheck: string[] = [];
  let user: string | undefined;
  for (const instruction of instructions(readFileSync(file, 'utf8'))) {
    const [keyword = '', ...rest] = instruction.split(/\s+/);
    const argument = instruction.slice(keyword.length).trim();
    const stage = stages.at(-1);
    switch (keyword.toUpperCase()) {
      case 'FROM': {
        const base = stages.find((earlier) => earlier.name !== undefined && earlier.name === rest[0]);
        stages.push({ name: /\sAS\s+(\S+)$/i.exec(argument)?.[1], base: base?.name, copies: [], runs: [] });
        // A stage built on another keeps its environment, directory and user; one on an image starts afresh.
        if (!base) {
          environment = {};
          workingDirectory = '/';
          user = undefined;
        }
        break;
      }
      case 'COPY': {
        const from = rest.find((part) => part.startsWith('--from='))?.slice('--from='.length);
        const paths = rest.filter((part) => !part.startsWith('--'));
        const destination = paths.pop() ?? '';
        for (const source of paths) stage?.copies.push({ from, source, destination });
        break;
      }
      case 'RUN':
        stage?.runs.push(argument);
        break;
      case 'ENV':
        environment = { ...environment, ...environmentOf(argument) };
        break;
      case 'WORKDIR':
        workingDirectory = argument;
        break;
      case 'USER':
        user = argument;
        break;
      case 'CMD':
        command = execForm(argument, 'CMD');
        break;
      case 'HEALTHCHECK': {
        const commandStart = argument.indexOf('CMD ');
        healthCheck = execForm(argument.slice(commandStart + 'CMD '.length), 'HEALTHCHECK CMD');
        break;
      }
    }
  }
  return { stages, environment, workingDirectory, command, healthCheck, user };
}
