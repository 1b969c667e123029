import { describe, expect, it } from 'vitest';
import {
  type ConfigurationReference,
  generatedDocuments,
  loadReferences,
  REGENERATE_COMMAND,
  renderTable,
  rowsOf,
  withTables,
} from './config-tables.mjs';

/** A schema field as the tables read it: what it parses an unset variable to. */
const field = (defaultValue?: unknown) => ({
  safeParse: () =>
    defaultValue === undefined ? { success: false } : { success: true, data: defaultValue as unknown },
});

describe('the configuration tables', () => {
  it('in docs/operations.md are what the schemas generate', async () => {
    const documents = await generatedDocuments();
    expect(documents.length).toBeGreaterThan(0);
    for (const { file, current, generated } of documents) {
      expect(
        current,
        `${file}: its configuration tables differ from the schemas; run \`${REGENERATE_COMMAND}\` and commit the result`,
      ).toBe(generated);
    }
  });

  it("have a row for every variable of the server's and the provider's schema, and no secret's value", async () => {
    const references = await loadReferences();
    for (const [app, source] of [
      ['server', 'apps/server/src/config.ts'],
      ['provider', 'apps/provider/src/config.ts'],
    ] as const) {
      const reference = references[app];
      const table = renderTable(rowsOf(reference!, source), source);
      for (const name of Object.keys(reference?.schema?.shape ?? {}))
        expect(table).toContain(`| \`${name}\` |`);
      // The public development secrets (@concierge/contracts, PUBLIC_DEVELOPMENT_SECRETS) all begin so.
      expect(table).not.toContain('concierge-dev-');
    }
    const server = rowsOf(references.server!, 'server');
    expect(server.find((row) => row.name === 'FORM_SECRET')).toMatchObject({
      isRequired: true,
      isSecret: true,
      shownDefault: '(development only)',
    });
    expect(server.find((row) => row.name === 'PORTAL_URL')?.shownDefault).toBe(
      '`http://localhost:8080` (development only)',
    );
    // A path computed from the source file is shown from the repository's root.
    expect(server.find((row) => row.name === 'PORTAL_DIST_DIR')?.shownDefault).toBe('`apps/portal/dist`');
  });

  it("never show a secret's value, and refuse a secret with a default value", () => {
    const reference: ConfigurationReference = {
      schema: { shape: { TOKEN: field(), PORT: field(8080) } },
      variables: { TOKEN: 'a token', PORT: 'a port' },
      secrets: ['TOKEN'],
      developmentDefaults: { TOKEN: 'public-development-token' },
    };
    const table = renderTable(rowsOf(reference, 'test'), 'test');
    expect(table).toContain('| `TOKEN` | secret | (development only) | a token |');
    expect(table).toContain('| `PORT` |  | `8080` | a port |');
    expect(table).not.toContain('public-development-token');

    const withDefault = { ...reference, schema: { shape: { TOKEN: field('fixed'), PORT: field(8080) } } };
    expect(() => rowsOf(withDefault, 'test')).toThrow('TOKEN: a secret with a default value');
  });

  it('stop at a variable that is not described, naming it and its module', () => {
    const reference: ConfigurationReference = {
      schema: { shape: { DESCRIBED: field(), NEW_ONE: field(1) } },
      variables: { DESCRIBED: 'described', LISTED: '' },
      requiredOutsideDevelopment: ['ELSEWHERE'],
    };
    expect(() => rowsOf(reference, 'apps/x/src/config.ts')).toThrow(
      /apps\/x\/src\/config\.ts:\n {2}NEW_ONE: in the schema but not described\n {2}ELSEWHERE: listed but not described\n {2}LISTED: no description/,
    );
  });

  it('go between their markers, which must be there', () => {
    const text = 'before\n<!-- config:server -->\nold\n<!-- /config:server -->\nafter\n';
    const written = withTables(text, { server: 'new' }, 'x.md');
    expect(written).toBe('before\n<!-- config:server -->\nnew\n<!-- /config:server -->\nafter\n');
    expect(withTables(written, { server: 'new' }, 'x.md')).toBe(written);
    expect(() => withTables('no markers', { server: 'new' }, 'x.md')).toThrow(
      'x.md: needs "<!-- config:server -->" once, followed by "<!-- /config:server -->"',
    );
  });

  it('keep a cell on one line and escape its bars', () => {
    const rows = rowsOf({ variables: { A: { description: 'one\n  two | three', default: 'x' } } }, 'test');
    expect(renderTable(rows, 'test')).toContain('| `A` |  | `x` | one two \\| three |');
  });
});
