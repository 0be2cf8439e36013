import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../../vitest.config.ts';

/**
 * What docs/development.md says about the test projects, checked against vitest.config.ts and
 * package.json, so that adding, renaming or moving a project fails here until the docs follow.
 * (The stack's resource count in README.md is checked by test/stack/template.test.ts.)
 */
const root = resolve(import.meta.dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Project {
  name: string;
  include: string[];
  globalSetup: string[];
}
const projects: Project[] = (config.test?.projects ?? []).map((entry) => {
  const test = (entry as { test: { name: string; include: string[]; globalSetup?: string[] } }).test;
  return { name: test.name, include: test.include, globalSetup: test.globalSetup ?? [] };
});

/** The rows of the table under "## Tests": project, files, what it starts, script. */
function projectTable(): string[][] {
  const section = read('docs/development.md').split('\n## Tests\n')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => /^\| `[a-z0-9-]+` /.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('docs/development.md, "Tests"', () => {
  it('lists every vitest project, in the config order', () => {
    expect(projectTable().map(([name]) => name)).toEqual(projects.map(({ name }) => `\`${name}\``));
  });

  it("names each project's files and its npm script, which runs that project", () => {
    const scripts: Record<string, string> = JSON.parse(read('package.json')).scripts;
    for (const [name, files, , script] of projectTable()) {
      const project = projects.find((p) => `\`${p.name}\`` === name);
      const folder = files?.replace(/^`/, '').split('**')[0] ?? '';
      expect(project?.include[0]?.startsWith(folder), `${name}: ${files}`).toBe(true);
      expect(script).toBe(`\`npm run test:${project?.name}\``);
      expect(scripts[`test:${project?.name}`]).toBe(`vitest run --project ${project?.name}`);
    }
  });

  it('names the projects that start DynamoDB Local', () => {
    const stated = /Only ((?:`[a-z0-9-]+`(?:, | and )?)+) name `test\/global-setup.ts`/.exec(
      read('docs/development.md'),
    )?.[1];
    const withDynamo = projects.filter((p) => p.globalSetup.includes('test/global-setup.ts'));
    expect(stated?.match(/(?<=`)[a-z0-9-]+(?=`)/g)).toEqual(withDynamo.map(({ name }) => name));
  });

  it('is right that the unit project starts nothing: no child process, socket or server', () => {
    const files = readdirSync(join(root, 'test/unit'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => join(root, 'test/unit', file));
    const starting = files.filter((file) =>
      /from 'node:(child_process|net|http|https|dgram)'/.test(readFileSync(file, 'utf8')),
    );
    expect(starting.map((file) => relative(root, file))).toEqual([]);
  });
});
