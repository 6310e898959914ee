/**
 * Part of `npm run lint`: every workflow in .github/workflows checked against the GitHub Actions
 * workflow schema by @action-validator/core (the schema ships inside the package: works offline).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow, type ValidationError } from '@action-validator/core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WORKFLOWS_DIR = join(root, '.github', 'workflows');

/** One line per problem: where in the file, and what is wrong. */
export function workflowProblems(source: string): string[] {
  const lines = (errors: ValidationError[]): string[] =>
    errors.flatMap((error) => {
      const where = 'path' in error ? error.path : `line ${error.location?.line ?? '?'}`;
      const nested =
        'states' in error && error.states ? error.states.flatMap((s) => lines(s.errors)) : [];
      return [`${where || '/'}: ${error.detail ?? error.title}`, ...nested];
    });
  return [...new Set(lines(validateWorkflow(source).errors))];
}

export function workflowFiles(dir = WORKFLOWS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const file of workflowFiles()) {
    const problems = workflowProblems(readFileSync(file, 'utf8'));
    if (problems.length === 0) continue;
    failed = true;
    console.error(`${file.slice(root.length + 1)} does not match the workflow schema:`);
    for (const problem of problems) console.error(`  ${problem}`);
  }
  process.exit(failed ? 1 : 0);
}
