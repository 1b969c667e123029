// The configuration tables of docs/operations.md, generated from each app's schema: every variable,
// whether a deployment must set it, whether it is a secret, its default and what it does. Each app's
// config module exports a CONFIGURATION_REFERENCE beside its schema (@concierge/contracts,
// configuration-reference.ts); the table goes between `<!-- config:<app> -->` and
// `<!-- /config:<app> -->`. scripts/config-tables.test.ts fails when the committed tables differ.
//
//   npm run config-tables             rewrites the tables
//   npm run config-tables -- --check  exits 1 when a table is not what the schemas give
//
// The config modules are TypeScript: esbuild (the build's own) bundles them into one module under
// node_modules/.cache, which is imported and deleted again.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const thisFile = fileURLToPath(import.meta.url);

/** The command that rewrites the tables, as messages name it. */
export const REGENERATE_COMMAND = 'npm run config-tables';

/** The apps, in the order of their tables; `source` exports CONFIGURATION_REFERENCE. */
export const CONFIG_APPS = [
  { name: 'server', source: 'apps/server/src/config.ts' },
  { name: 'provider', source: 'apps/provider/src/config.ts' },
  { name: 'property-portal', source: 'apps/property-portal/src/config.ts' },
  { name: 'mail-catcher', source: 'apps/mail-catcher/src/config.ts' },
];

/** Where the tables are: the full reference. The README points to it instead of listing variables. */
export const DOCUMENTS = ['docs/operations.md'];

const DEVELOPMENT_ONLY = '(development only)';
const DOCUMENTED_KEYS = new Set(['description', 'default', 'shownDefault']);

/**
 * Each app's CONFIGURATION_REFERENCE, keyed by app name. The sources are bundled with every
 * `import.meta.url` replaced by the source file's own URL, so that a default computed from it (the
 * tenant registry, the portal's dist) is the path the app itself would use.
 * @returns {Promise<Record<string, import('./config-tables.d.mts').ConfigurationReference>>}
 */
export async function loadReferences() {
  const esbuild = await import('esbuild');
  const cacheDir = join(root, 'node_modules', '.cache', 'config-tables');
  mkdirSync(cacheDir, { recursive: true });
  const outfile = join(cacheDir, `references-${process.pid}-${Date.now()}.mjs`);
  try {
    await esbuild.build({
      absWorkingDir: root,
      stdin: {
        contents: CONFIG_APPS.map(
          (app, index) =>
            `export { CONFIGURATION_REFERENCE as app${index} } from ${JSON.stringify(`./${app.source}`)};`,
        ).join('\n'),
        resolveDir: root,
        sourcefile: 'config-tables-entry.js',
        loader: 'js',
      },
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      plugins: [npmPackagesExternal, sourceImportMetaUrl],
    });
    const bundle = await import(pathToFileURL(outfile).href);
    return Object.fromEntries(CONFIG_APPS.map((app, index) => [app.name, bundle[`app${index}`]]));
  } finally {
    rmSync(outfile, { force: true });
    await esbuild.stop();
  }
}

/**
 * npm packages stay imports, resolved from the repository's node_modules (the bundle lies there).
 * @type {import('esbuild').Plugin}
 */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@concierge/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** @type {import('esbuild').Plugin} */
const sourceImportMetaUrl = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

/**
 * One row per variable: its name, whether a deployment must set it, whether it is a secret, its
 * default and its meaning. Throws, naming the variable, where the reference contradicts itself.
 * @param {import('./config-tables.d.mts').ConfigurationReference} reference
 * @param {string} source the config module, for messages
 * @returns {import('./config-tables.d.mts').ConfigRow[]}
 */
export function rowsOf(reference, source) {
  const shape = reference.schema?.shape ?? {};
  const variables = reference.variables ?? {};
  const required = new Set(reference.requiredOutsideDevelopment ?? []);
  const secrets = new Set(reference.secrets ?? []);
  const developmentDefaults = reference.developmentDefaults ?? {};
  const problems = [];
  for (const name of Object.keys(shape)) {
    if (!Object.hasOwn(variables, name)) problems.push(`${name}: in the schema but not described`);
  }
  const listed = [...required, ...secrets, ...Object.keys(developmentDefaults)];
  for (const name of new Set(listed)) {
    if (!Object.hasOwn(variables, name)) problems.push(`${name}: listed but not described`);
  }
  const rows = Object.entries(variables).map(([name, entry]) => {
    const documented = typeof entry === 'string' ? { description: entry } : entry;
    for (const key of Object.keys(documented)) {
      if (!DOCUMENTED_KEYS.has(key)) problems.push(`${name}: unknown key "${key}"`);
    }
    if (!documented.description?.trim()) problems.push(`${name}: no description`);
    const isSecret = secrets.has(name);
    const field = shape[name];
    let value = documented.default;
    if (field) {
      if (value !== undefined) problems.push(`${name}: its default is the schema's, not given beside it`);
      const parsed = field.safeParse(undefined);
      value = parsed.success && parsed.data !== undefined ? shownValue(parsed.data) : undefined;
    }
    if (isSecret && value !== undefined) problems.push(`${name}: a secret with a default value`);
    const isDevelopmentDefault = Object.hasOwn(developmentDefaults, name);
    let shownDefault = documented.shownDefault ?? (value === undefined ? '—' : code(value));
    if (isDevelopmentDefault) {
      shownDefault = isSecret
        ? DEVELOPMENT_ONLY
        : `${code(shownValue(developmentDefaults[name]))} ${DEVELOPMENT_ONLY}`;
    }
    return {
      name,
      isRequired: required.has(name),
      isSecret,
      shownDefault,
      description: documented.description ?? '',
    };
  });
  if (problems.length > 0) {
    throw new Error(`Configuration reference of ${source}:\n  ${problems.join('\n  ')}`);
  }
  return rows;
}

/**
 * A default as text: a path in this repository relative to it, a list joined by commas.
 * @param {unknown} value
 */
function shownValue(value) {
  if (Array.isArray(value)) return value.map(shownValue).join(',');
  const text = String(value);
  return isAbsolute(text) && text.startsWith(root) ? relative(root, text) : text;
}

/** @param {string} text */
function code(text) {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** @param {string} text a table cell's Markdown, on one line */
function cell(text) {
  return text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');
}

/** @param {import('./config-tables.d.mts').ConfigRow} row */
function kindOf(row) {
  return [row.isRequired ? 'required' : '', row.isSecret ? 'secret' : ''].filter(Boolean).join(', ');
}

/**
 * The Markdown between an app's markers: where it comes from, and the table.
 * @param {import('./config-tables.d.mts').ConfigRow[]} rows
 * @param {string} source
 */
export function renderTable(rows, source) {
  return [
    `Generated from \`${source}\` by \`${REGENERATE_COMMAND}\`: change the descriptions there.`,
    '',
    '| variable | required or secret | default | meaning |',
    '|---|---|---|---|',
    ...rows.map(
      (row) => `| \`${row.name}\` | ${kindOf(row)} | ${cell(row.shownDefault)} | ${cell(row.description)} |`,
    ),
  ].join('\n');
}

/**
 * The text with each app's table between its markers, which must be there once each.
 * @param {string} text
 * @param {Record<string, string>} tables app name → Markdown
 * @param {string} file for messages
 */
export function withTables(text, tables, file) {
  let result = text;
  for (const [name, table] of Object.entries(tables)) {
    const start = `<!-- config:${name} -->`;
    const end = `<!-- /config:${name} -->`;
    const from = result.indexOf(start);
    const to = result.indexOf(end);
    if (from === -1 || to < from || result.indexOf(start, from + 1) !== -1) {
      throw new Error(`${file}: needs "${start}" once, followed by "${end}", for the ${name} table`);
    }
    result = `${result.slice(0, from + start.length)}\n${table}\n${result.slice(to)}`;
  }
  return result;
}

/**
 * What each document should hold: path (from the root) → its current and its generated text.
 * @returns {Promise<{ file: string, current: string, generated: string }[]>}
 */
export async function generatedDocuments() {
  const references = await loadReferences();
  const tables = Object.fromEntries(
    CONFIG_APPS.map((app) => [app.name, renderTable(rowsOf(references[app.name], app.source), app.source)]),
  );
  return DOCUMENTS.map((file) => {
    const current = readFileSync(join(root, file), 'utf8');
    return { file, current, generated: withTables(current, tables, file) };
  });
}

if (process.argv[1] === thisFile) {
  const isCheck = process.argv.includes('--check');
  let stale = 0;
  for (const { file, current, generated } of await generatedDocuments()) {
    if (current === generated) {
      console.log(`${file}: configuration tables up to date`);
    } else if (isCheck) {
      stale += 1;
      console.error(`${file}: configuration tables differ from the schemas; run ${REGENERATE_COMMAND}`);
    } else {
      writeFileSync(join(root, file), generated);
      console.log(`${file}: configuration tables written`);
    }
  }
  process.exitCode = stale > 0 ? 1 : 0;
}
