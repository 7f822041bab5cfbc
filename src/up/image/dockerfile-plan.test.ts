// The registry-free image build follows the Dockerfile: its final stage is fully understood, every earlier stage
// has a local builder, the base matches .node-version, and the build context honours .dockerignore. A Dockerfile
// change the image build cannot follow fails here instead of producing a different image.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.ts';
import { KNOWN_STAGES } from './build-image.ts';
import { BuildContext } from './build-context.ts';
import { DockerfilePlanError, planFromDockerfile } from './dockerfile-plan.ts';

const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');

describe('the image build plan, read from the Dockerfile', () => {
  it('understands every instruction of the final stage and has a builder for every earlier stage', () => {
    const plan = planFromDockerfile(dockerfile);
    expect([...plan.stages].sort()).toEqual([...KNOWN_STAGES].sort());
    const nodeMajor = readFileSync(join(REPO_ROOT, '.node-version'), 'utf8').trim().split('.')[0];
    expect(plan.base).toBe(`node:${nodeMajor}-bookworm-slim`);
    expect(plan.user).toMatch(/^[1-9]\d*:[1-9]\d*$/); // numeric and non-root: the chart's runAsNonRoot can check it
    expect(plan.entrypoint[0]).toMatch(/^\/app\//);
    for (const copy of plan.copies) expect(copy.destination.startsWith(plan.workdir)).toBe(true);
  });

  it('refuses a final-stage instruction it cannot reproduce, naming the line', () => {
    const withRun = dockerfile.replace(/^USER /m, 'RUN apt-get install -y curl\nUSER ');
    const line = withRun.split('\n').findIndex((text) => text.startsWith('RUN apt-get')) + 1;
    expect(() => planFromDockerfile(withRun)).toThrow(DockerfilePlanError);
    expect(() => planFromDockerfile(withRun)).toThrow(`Dockerfile line ${line} (RUN)`);
  });

  it('refuses a COPY --from naming no stage, and the shell form of CMD', () => {
    expect(() => planFromDockerfile('FROM a AS one\nFROM b\nCOPY --from=two /x /y\n')).toThrow('--from=two names no earlier stage');
    expect(() => planFromDockerfile('FROM b\nCMD node server.js\n')).toThrow('only the exec (JSON array) form');
  });

  it('resolves destinations against WORKDIR and keeps "into this directory"', () => {
    const plan = planFromDockerfile('FROM b\nWORKDIR /app\nCOPY package.json ./\nCOPY a.txt ./b/c.txt\nCOPY src/ ./src/\n');
    expect(plan.copies.map((copy) => copy.destination)).toEqual(['/app/', '/app/b/c.txt', '/app/src/']);
  });
});

describe('the build context', () => {
  it('leaves out what .dockerignore names: the tests beside the sources', () => {
    const files = new BuildContext(REPO_ROOT).files('src').map((file) => file.path);
    expect(files).toContain('src/cli.ts');
    expect(files.some((path) => path.endsWith('.test.ts'))).toBe(false);
    expect(new BuildContext(REPO_ROOT).files('test')).toEqual([]);
  });
});
