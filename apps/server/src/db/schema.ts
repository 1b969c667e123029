// Kysely table types of the server's schema, one interface per table.

export interface RateLimitsTable {
  key: string;
  window_start: Date;
  hits: number;
}

export interface ServerTables {
  rate_limits: RateLimitsTable;
}
