import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/decisions.md, "Feature folders": a feature folder holds one concern's use cases and never
// imports another feature; what several features use lives in a shared folder, which imports no
// feature. routes/, cli/, test-support/ and the files at the top (app.ts, main.ts, background jobs)
// wire the features together and may import any of them.
const FEATURES = ['activation', 'admin', 'console', 'failed-logins', 'password-reset', 'registration'];
const SHARED = [
  'accounts',
  'db',
  'http',
  'mail',
  'observability',
  'outbox',
  'provider-client',
  'ssr',
  'tenants',
];

const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The top-level folder below src/ of each relative import of a file. */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map(
    (match) => relative(root, join(dirname(file), match[1]!)).split(sep)[0]!,
  );
}

describe('feature folders', () => {
  it('lists every top-level folder as a feature, a shared folder or wiring', () => {
    const folders = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const wiring = ['cli', 'routes', 'test-support'];
    expect(folders.filter((folder) => ![...FEATURES, ...SHARED, ...wiring].includes(folder))).toEqual([]);
  });

  it.each(FEATURES)('%s imports no other feature', (feature) => {
    const crossings = sourceFiles(join(root, feature)).flatMap((file) =>
      importedFolders(file)
        .filter((folder) => FEATURES.includes(folder) && folder !== feature)
        .map((folder) => `${relative(root, file)} → ${folder}`),
    );
    expect(crossings).toEqual([]);
  });

  it.each(SHARED)('%s imports no feature', (shared) => {
    const crossings = sourceFiles(join(root, shared)).flatMap((file) =>
      importedFolders(file)
        .filter((folder) => FEATURES.includes(folder))
        .map((folder) => `${relative(root, file)} → ${folder}`),
    );
    expect(crossings).toEqual([]);
  });
});
