import { createHash, randomBytes } from 'node:crypto';
import type { ConsoleFlash, Language } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';
import { matchingSecret } from '../http/api-key';
import type { ConsoleAccess } from './console-roles';

/** How long a sign-in may take at the provider before its return is refused. */
export const SIGN_IN_LIFETIME_MS = 10 * 60_000;

export interface ConsoleSession {
  /** The hash the session is kept by (never the cookie's value). */
  idHash: string;
  sub: string;
  email: string;
  name: string | null;
  access: ConsoleAccess;
  csrfToken: string;
  language: Language;
  /** When it ends if nothing else is asked. */
  endsAt: Date;
}

export interface SessionLifetime {
  idleMs: number;
  maxMs: number;
}

const hashOf = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url');
const randomToken = () => randomBytes(32).toString('base64url');

/**
 * A sign-in sent to the provider: its return is matched to this by its state, once, and only in the
 * browser that started it — the returned value goes into that browser's cookie. Without it, a
 * return link someone else started (and stopped before using) would sign a victim into the
 * starter's account (login CSRF).
 */
export async function rememberSignIn(
  db: Kysely<ServerTables>,
  started: { state: string; nonce: string; codeVerifier: string; language: Language },
): Promise<string> {
  const browser = randomToken();
  await db
    .insertInto('console_sign_ins')
    .values({
      state_hash: hashOf(started.state),
      code_verifier: started.codeVerifier,
      nonce: started.nonce,
      language: started.language,
      browser_hash: hashOf(browser),
      created_at: new Date(),
    })
    .execute();
  return browser;
}

/**
 * The sign-in a return's state belongs to, taken (a second return with it finds none); null when
 * there is none, it is too old, or the browser's cookie (`browser`) is not the one that started it.
 */
export async function takeSignIn(
  db: Kysely<ServerTables>,
  state: string,
  browser: string | undefined,
): Promise<{ nonce: string; codeVerifier: string; language: string } | null> {
  const row = await db
    .deleteFrom('console_sign_ins')
    .where('state_hash', '=', hashOf(state))
    .returning(['nonce', 'code_verifier', 'language', 'browser_hash', 'created_at'])
    .executeTakeFirst();
  if (!row || row.created_at.getTime() < Date.now() - SIGN_IN_LIFETIME_MS) return null;
  if (!browser || matchingSecret(hashOf(browser), [row.browser_hash]) === -1) return null;
  return { nonce: row.nonce, codeVerifier: row.code_verifier, language: row.language };
}

/** A new session for a signed-in user; the cookie's value is returned once and kept only as its hash. */
export async function openSession(
  db: Kysely<ServerTables>,
  user: {
    sub: string;
    email: string;
    name: string | null;
    access: ConsoleAccess;
    language: Language;
    idToken: string | null;
  },
): Promise<string> {
  const cookieValue = randomToken();
  const now = new Date();
  await db
    .insertInto('console_sessions')
    .values({
      id_hash: hashOf(cookieValue),
      sub: user.sub,
      email: user.email,
      name: user.name,
      role: user.access.role,
      tenants: user.access.tenants,
      csrf_token: randomToken(),
      language: user.language,
      id_token: user.idToken,
      created_at: now,
      last_seen_at: now,
    })
    .execute();
  return cookieValue;
}

/**
 * The session of a cookie, kept alive by this request; 'expired' when it was idle too long or its
 * time is up (and it is ended now), null when there is none. One statement decides, so that two
 * requests at the end of the idle time cannot both find it alive and dead.
 */
export async function resumeSession(
  db: Kysely<ServerTables>,
  cookieValue: string,
  lifetime: SessionLifetime,
): Promise<ConsoleSession | 'expired' | null> {
  const idHash = hashOf(cookieValue);
  const now = new Date();
  const row = await db
    .updateTable('console_sessions')
    .set({ last_seen_at: now })
    .where('id_hash', '=', idHash)
    .where('last_seen_at', '>', new Date(now.getTime() - lifetime.idleMs))
    .where('created_at', '>', new Date(now.getTime() - lifetime.maxMs))
    .returningAll()
    .executeTakeFirst();
  if (!row) {
    const ended = await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).executeTakeFirst();
    return ended.numDeletedRows > 0n ? 'expired' : null;
  }
  const endsAt = Math.min(now.getTime() + lifetime.idleMs, row.created_at.getTime() + lifetime.maxMs);
  return {
    idHash,
    sub: row.sub,
    email: row.email,
    name: row.name,
    access:
      row.role === 'operator' ? { role: 'operator', tenants: [] } : { role: 'manager', tenants: row.tenants },
    csrfToken: row.csrf_token,
    language: row.language as Language,
    endsAt: new Date(endsAt),
  };
}

/** Ends the session; its ID token, for the provider's sign-out (null: none, or no session). */
export async function endSession(db: Kysely<ServerTables>, cookieValue: string): Promise<string | null> {
  const ended = await db
    .deleteFrom('console_sessions')
    .where('id_hash', '=', hashOf(cookieValue))
    .returning('id_token')
    .executeTakeFirst();
  return ended?.id_token ?? null;
}

/** What a post did, for the page it leads to. */
export async function setFlash(db: Kysely<ServerTables>, idHash: string, flash: ConsoleFlash): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ flash: JSON.stringify(flash) })
    .where('id_hash', '=', idHash)
    .execute();
}

/** The flash, said once: read and cleared together. */
export async function takeFlash(db: Kysely<ServerTables>, idHash: string): Promise<ConsoleFlash | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('console_sessions')
      .select('flash')
      .where('id_hash', '=', idHash)
      .where('flash', 'is not', null)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return null;
    await trx.updateTable('console_sessions').set({ flash: null }).where('id_hash', '=', idHash).execute();
    return row.flash as ConsoleFlash;
  });
}

export async function setSessionLanguage(
  db: Kysely<ServerTables>,
  idHash: string,
  language: Language,
): Promise<void> {
  await db.updateTable('console_sessions').set({ language }).where('id_hash', '=', idHash).execute();
}

const DAY_MS = 24 * 3_600_000;

/**
 * Housekeeping: sign-ins never returned, and sessions ended a day ago (kept that day so that their
 * user is told the session expired, rather than shown the sign-in page without a word).
 */
export async function pruneConsole(db: Kysely<ServerTables>, lifetime: SessionLifetime): Promise<void> {
  const now = Date.now();
  await db
    .deleteFrom('console_sign_ins')
    .where('created_at', '<', new Date(now - SIGN_IN_LIFETIME_MS))
    .execute();
  await db
    .deleteFrom('console_sessions')
    .where((eb) =>
      eb.or([
        eb('created_at', '<', new Date(now - lifetime.maxMs - DAY_MS)),
        eb('last_seen_at', '<', new Date(now - lifetime.idleMs - DAY_MS)),
      ]),
    )
    .execute();
}
