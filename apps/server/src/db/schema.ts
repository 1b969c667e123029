// Kysely table types of the server's schema; one interface per table as they are added.
// biome-ignore lint/complexity/noBannedTypes: no tables yet
export type ServerTables = {};
