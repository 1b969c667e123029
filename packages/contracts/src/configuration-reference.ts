import type { z } from 'zod';

// What docs/operations.md's configuration table of an app is generated from (`npm run config-tables`,
// scripts/config-tables.mjs): each app's config module exports one `CONFIGURATION_REFERENCE` beside
// its schema, so that a variable is described in one place and the table cannot drift from the code.

/** A variable described with more than its meaning. */
export interface DocumentedVariable {
  /** What it does, in Markdown: the table's "meaning" cell. */
  description: string;
  /** The default value, shown as code, of a variable the schema does not parse (the schema's own is shown otherwise). */
  default?: string;
  /** The default in Markdown where it is not a value (another variable's value, `off`, random per process). */
  shownDefault?: string;
}

/**
 * The description of every variable of a schema (a missing one does not compile), and of those the
 * app reads elsewhere (`Elsewhere`: by another module, or before the schema is parsed).
 */
export type VariableDescriptions<Schema extends z.ZodObject, Elsewhere extends string = never> = {
  [Name in keyof Schema['shape']]: string | DocumentedVariable;
} & { [Name in Elsewhere]: string | DocumentedVariable };

/** What the table of one app is made of. */
export interface ConfigurationReference {
  /** The environment schema: the default shown is what it gives for an unset variable. */
  schema?: z.ZodObject;
  /** Every variable, in the table's order: its description, or the description and its default. */
  variables: Readonly<Record<string, string | DocumentedVariable>>;
  /** What a deployment (no CONCIERGE_DEV=true) must set. */
  requiredOutsideDevelopment?: readonly string[];
  /** Secrets: the table never shows their value. */
  secrets?: readonly string[];
  /** Values taken only with CONCIERGE_DEV=true; a secret's shows as "(development only)". */
  developmentDefaults?: Readonly<Record<string, string>>;
}
