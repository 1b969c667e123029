import { type Kysely, loggableError, sql } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { ServerTables } from '../db/schema';
import { brandRevisions, latestPublishedRevisions } from './brand-store';
import type { BrandRevision } from './tenant-brand';
import type { TenantRegistry } from './tenant-registry';

/** The channel a publish notifies on; the payload is the server's schema (one database may hold several). */
export const BRAND_CHANNEL = 'concierge_tenant_brands';
/** The check of the newest revisions, for a notification lost with the listener's connection. */
const POLL_MS = 2000;
/** How soon a lost listener connection is tried again. */
const RECONNECT_MS = 2000;

/** Sent in a publish's own transaction: PostgreSQL delivers it at commit, to every instance listening. */
export async function notifyBrandPublished(trx: Kysely<ServerTables>): Promise<void> {
  await sql`select pg_notify(${BRAND_CHANNEL}, current_schema())`.execute(trx);
}

/**
 * Puts the newest published brand of every tenant in use, when it is not yet: only the revisions the
 * registry does not hold are read whole (a logo is up to 512 KiB). True when something changed.
 */
export async function syncPublishedBrands(
  db: Kysely<ServerTables>,
  registry: TenantRegistry,
): Promise<boolean> {
  const latest = await latestPublishedRevisions(db);
  const inUse = registry.publishedBrands;
  const missing = new Map(
    [...latest].filter(([tenant, revision]) => inUse.get(tenant)?.revision !== revision),
  );
  if (missing.size === 0 && latest.size === inUse.size) return false;
  const read = new Map((await brandRevisions(db, missing)).map((brand) => [brand.tenant, brand]));
  const next = new Map<string, BrandRevision>();
  for (const [tenant, revision] of latest) {
    const brand = read.get(tenant) ?? inUse.get(tenant);
    if (brand?.revision === revision) next.set(tenant, brand);
  }
  registry.takePublishedBrands(next);
  return true;
}

export interface BrandSyncOptions {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  /** The database's URL, for the listener's own connection (LISTEN holds a connection for good). */
  databaseUrl: string;
  /** The server's schema: the payload of its notifications. */
  schema: string;
  log: FastifyBaseLogger;
  /** How often the newest revisions are checked besides the notifications (tests lengthen it). */
  pollMs?: number;
}

export interface BrandSync {
  /** Ends the listener and the checks; resolves when a sync under way has ended. */
  stop(): Promise<void>;
}

/**
 * Issue 30: a brand published on any instance is in use on every instance within about two seconds,
 * without a restart. The published brands are read at start (before the server listens); then each
 * instance LISTENs on BRAND_CHANNEL with a connection of its own, and reads what changed when a
 * publish notifies. A notification is lost while that connection is down, so the newest revisions are
 * also checked every two seconds, and once more on every reconnect. A database that cannot be reached
 * leaves the brands in use as they are (logged), until it can.
 */
export async function startBrandSync(options: BrandSyncOptions): Promise<BrandSync> {
  const { db, registry, databaseUrl, schema, log } = options;
  let stopped = false;
  let listener: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let syncing = Promise.resolve();

  /** A failing read is logged once, not every two seconds of an outage; its end too. */
  let isFailing = false;
  const sync = () => {
    syncing = syncing
      .then(async () => {
        if (stopped) return;
        const changed = await syncPublishedBrands(db, registry);
        if (isFailing) log.info('published tenant brands read again');
        isFailing = false;
        if (changed) {
          const revisions = Object.fromEntries(
            [...registry.publishedBrands].map(([tenant, brand]) => [tenant, brand.revision]),
          );
          log.info({ revisions }, 'published tenant brands in use');
        }
      })
      .catch((error: unknown) => {
        if (!isFailing) {
          log.warn({ err: loggableError(error) }, 'published tenant brands not read: the ones in use stay');
        }
        isFailing = true;
      });
    return syncing;
  };

  /** Listening now, or (false) since the connection was lost: a loss is logged once, its end too. */
  let isListening = false;
  let hasLostListener = false;
  const lost = (client: pg.Client, error?: Error) => {
    if (listener !== client) return;
    listener = undefined;
    client.end().catch(() => undefined);
    if (stopped) return;
    if (isListening || !hasLostListener) {
      log.warn({ err: error ? loggableError(error) : undefined }, 'brand listener lost: connecting again');
    }
    isListening = false;
    hasLostListener = true;
    reconnectTimer = setTimeout(listen, RECONNECT_MS);
  };

  async function listen() {
    if (stopped) return;
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client));
    client.on('notification', (message) => {
      if (message.channel === BRAND_CHANNEL && message.payload === schema) void sync();
    });
    try {
      listener = client;
      await client.connect();
      await client.query(`LISTEN ${BRAND_CHANNEL}`);
    } catch (error) {
      if (listener === client) lost(client, error as Error);
      return;
    }
    if (hasLostListener) log.info('brand listener connected again');
    isListening = true;
    // What was published while no one listened.
    void sync();
  }

  await syncPublishedBrands(db, registry);
  await listen();
  const poll = setInterval(() => void sync(), options.pollMs ?? POLL_MS);
  poll.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(reconnectTimer);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      await syncing;
    },
  };
}
