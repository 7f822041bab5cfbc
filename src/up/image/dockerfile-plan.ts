// The product image's build description, read from the project's Dockerfile so the registry-free image build
// (src/up/image/build-image.ts) and `docker build .` cannot drift apart: the Dockerfile's FINAL stage says what the
// image is (base, files and where they go, environment, user, ports, entrypoint); this module turns it into a plan.
// An instruction of the final stage it does not understand is an error, never skipped: a new Dockerfile line must
// be taught here (and then lands in both builds). It reads text only; it runs nothing and touches no file.
//
// The earlier stages are not interpreted: each is named by its `AS` and mapped by the builder to the script that
// makes the same artefact on this machine (npm ci --omit=dev, build-ui.mjs, build-template-engine.sh).
import { posix } from 'node:path';

export interface CopyStep {
  /** The stage the files come from (`COPY --from=<stage>`); undefined: the build context (the repository). */
  fromStage?: string;
  /** Paths in the context or the stage, as written. */
  sources: string[];
  /** Absolute destination in the image (relative ones are resolved against WORKDIR). */
  destination: string;
}

export interface ImagePlan {
  /** The final stage's base image, e.g. node:24-bookworm-slim. */
  base: string;
  /** Names of every earlier stage (`FROM ... AS name`). */
  stages: string[];
  workdir: string;
  env: [string, string][];
  copies: CopyStep[];
  /** `USER` as written, e.g. 1000:1000. */
  user: string;
  /** Exposed ports, e.g. ['8081/tcp']. */
  exposedPorts: string[];
  entrypoint: string[];
  cmd: string[];
}

export class DockerfilePlanError extends Error {
  readonly code = 'DOCKERFILE_UNSUPPORTED';
}

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

/** Logical instructions: comments dropped, backslash continuations joined. */
function instructions(text: string): Instruction[] {
  const result: Instruction[] = [];
  let pending = '';
  let startLine = 0;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) return;
    if (!pending) startLine = index + 1;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      return;
    }
    const whole = (pending + line).trim();
    pending = '';
    const match = /^(\S+)\s*(.*)$/.exec(whole);
    if (match) result.push({ keyword: match[1]!.toUpperCase(), args: match[2]!, line: startLine });
  });
  return result;
}

function jsonArray(args: string, where: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw new DockerfilePlanError(`${where}: only the exec (JSON array) form is supported, got ${args}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) throw new DockerfilePlanError(`${where}: expected a JSON array of strings`);
  return parsed;
}

/** An absolute path; a trailing slash ("into this directory") is kept, as COPY gives it meaning. */
function resolveAgainst(workdir: string, path: string): string {
  const resolved = posix.resolve(workdir, path);
  return path.endsWith('/') && resolved !== '/' ? `${resolved}/` : resolved;
}

/** The plan of the Dockerfile's final stage. Throws DockerfilePlanError naming the line of anything unsupported. */
export function planFromDockerfile(text: string): ImagePlan {
  const all = instructions(text);
  const fromIndexes = all.flatMap((instruction, index) => (instruction.keyword === 'FROM' ? [index] : []));
  if (fromIndexes.length === 0) throw new DockerfilePlanError('no FROM instruction');
  const stages = fromIndexes.slice(0, -1).map((index) => {
    const match = /\sAS\s+(\S+)$/i.exec(all[index]!.args);
    if (!match) throw new DockerfilePlanError(`line ${all[index]!.line}: an earlier stage needs a name (FROM ... AS name)`);
    return match[1]!;
  });
  const finalFrom = all[fromIndexes.at(-1)!]!;
  const plan: ImagePlan = {
    base: finalFrom.args.split(/\s+/)[0]!,
    stages,
    workdir: '/',
    env: [],
    copies: [],
    user: '0:0',
    exposedPorts: [],
    entrypoint: [],
    cmd: [],
  };
  for (const instruction of all.slice(fromIndexes.at(-1)! + 1)) {
    const where = `Dockerfile line ${instruction.line} (${instruction.keyword})`;
    switch (instruction.keyword) {
      case 'WORKDIR':
        plan.workdir = resolveAgainst(plan.workdir, instruction.args.trim());
        break;
      case 'ENV': {
        const match = /^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$/.exec(instruction.args.trim());
        if (!match) throw new DockerfilePlanError(`${where}: only ENV NAME=value (one per line, no spaces) is supported`);
        plan.env.push([match[1]!, match[2]!]);
        break;
      }
      case 'COPY': {
        const words = instruction.args.trim().split(/\s+/);
        let fromStage: string | undefined;
        while (words[0]?.startsWith('--')) {
          const flag = words.shift()!;
          const from = /^--from=(.+)$/.exec(flag);
          if (!from) throw new DockerfilePlanError(`${where}: unsupported flag ${flag}`);
          fromStage = from[1]!;
          if (!stages.includes(fromStage)) throw new DockerfilePlanError(`${where}: --from=${fromStage} names no earlier stage`);
        }
        if (words.length < 2) throw new DockerfilePlanError(`${where}: COPY needs a source and a destination`);
        const destination = words.pop()!;
        plan.copies.push({ fromStage, sources: words, destination: resolveAgainst(plan.workdir, destination) });
        break;
      }
      case 'USER':
        plan.user = instruction.args.trim();
        break;
      case 'EXPOSE':
        plan.exposedPorts.push(
          ...instruction.args
            .trim()
            .split(/\s+/)
            .map((port) => (port.includes('/') ? port : `${port}/tcp`)),
        );
        break;
      case 'ENTRYPOINT':
        plan.entrypoint = jsonArray(instruction.args, where);
        break;
      case 'CMD':
        plan.cmd = jsonArray(instruction.args, where);
        break;
      default:
        throw new DockerfilePlanError(
          `${where}: the registry-free image build does not understand ${instruction.keyword}; teach src/up/image/dockerfile-plan.ts`,
        );
    }
  }
  return plan;
}
