/** A variable described with more than its meaning (@concierge/contracts, DocumentedVariable). */
export interface DocumentedVariable {
  description: string;
  default?: string;
  shownDefault?: string;
}

/** The part of a zod schema the tables read. */
export interface EnvSchemaLike {
  shape: Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown } }>;
}

/** What an app's config module exports as CONFIGURATION_REFERENCE (@concierge/contracts). */
export interface ConfigurationReference {
  schema?: EnvSchemaLike;
  variables: Readonly<Record<string, string | DocumentedVariable>>;
  requiredOutsideDevelopment?: readonly string[];
  secrets?: readonly string[];
  developmentDefaults?: Readonly<Record<string, string>>;
}

/** One line of a table. */
export interface ConfigRow {
  name: string;
  isRequired: boolean;
  isSecret: boolean;
  /** Markdown; a secret's value never. */
  shownDefault: string;
  description: string;
}

export const REGENERATE_COMMAND: string;
export const CONFIG_APPS: { name: string; source: string }[];
export const DOCUMENTS: string[];
/** Each app's CONFIGURATION_REFERENCE, by app name, loaded from its TypeScript source. */
export function loadReferences(): Promise<Record<string, ConfigurationReference>>;
/** The rows of a reference; throws naming each variable the reference contradicts itself on. */
export function rowsOf(reference: ConfigurationReference, source: string): ConfigRow[];
/** The Markdown between an app's markers. */
export function renderTable(rows: ConfigRow[], source: string): string;
/** The text with each table between its markers; throws naming a marker that is missing. */
export function withTables(text: string, tables: Record<string, string>, file: string): string;
/** Each document's current and generated text. */
export function generatedDocuments(): Promise<{ file: string; current: string; generated: string }[]>;
