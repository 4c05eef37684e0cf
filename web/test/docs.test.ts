// The guide's pictures are in the repository: every docs/screenshots/ picture
// that a page of docs/ (or the README) shows must exist, so that a fresh
// clone shows the guide whole. The browser tests write them
// (e2e/helpers.ts `screenshot`); commit them after a run that changes them.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The pages that may show screenshots, as paths under the repository. */
function pages(): string[] {
  const docs = readdirSync(join(repo, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.map((name) => join('docs', name))];
}

describe('the guide’s screenshots', () => {
  it('are all in the repository', () => {
    const missing: string[] = [];
    for (const page of pages()) {
      const text = readFileSync(join(repo, page), 'utf8');
      // A picture's path is relative to the page that shows it.
      for (const [, path] of text.matchAll(/\(([^)\s]*screenshots\/[^)\s]+\.(?:png|jpg))\)/g)) {
        if (!existsSync(join(repo, dirname(page), path))) missing.push(`${page}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
