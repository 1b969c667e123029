import { createHash, randomUUID } from 'node:crypto';
import { normaliseEmail } from '@concierge/contracts';
import type { Selectable } from 'kysely';
import type { ProviderDb, UserStatus, UsersTable } from '../db/schema';
import { hashPassword, verifyPassword } from './passwords';

export type User = Selectable<UsersTable>;

export interface NewUser {
  email: string;
  password: string;
  /** VERIFIED unless given: cidaas makes self-registered users VERIFIED at once (provider-protocol.md). */
  status?: UserStatus;
  /**
   * Whether the e-mail address is confirmed. Self-registration says false; otherwise it defaults to
   * true, except for PENDING users (older setups keep unverified users PENDING).
   */
  email_verified?: boolean;
  given_name?: string | null;
  family_name?: string | null;
  locale?: string | null;
  mobile_number?: string | null;
  roles?: string[];
  groups?: { groupId: string; roles: string[] }[];
}

export type CreateUserResult = { isCreated: true; sub: string } | { isCreated: false; reason: 'email_taken' };

export async function createUser(db: ProviderDb, input: NewUser): Promise<CreateUserResult> {
  const sub = randomUUID();
  const status = input.status ?? 'VERIFIED';
  const inserted = await db
    .insertInto('users')
    .values({
      sub,
      email: normaliseEmail(input.email),
      password_hash: await hashPassword(input.password),
      status,
      email_verified: input.email_verified ?? status !== 'PENDING',
      given_name: input.given_name ?? null,
      family_name: input.family_name ?? null,
      locale: input.locale ?? null,
      mobile_number: input.mobile_number ?? null,
      roles: JSON.stringify(input.roles ?? []),
      groups: JSON.stringify(input.groups ?? []),
    })
    // The unique e-mail decides between parallel registrations; no read-then-write race.
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning('sub')
    .executeTakeFirst();
  return inserted ? { isCreated: true, sub: inserted.sub } : { isCreated: false, reason: 'email_taken' };
}

export function findUserByEmail(db: ProviderDb, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
}

export function findUserBySub(db: ProviderDb, sub: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('sub', '=', sub).executeTakeFirst();
}

/**
 * The user whose password matches, whatever their status (the caller decides what a PENDING or
 * DECLINED user gets). Unknown e-mails cost a hash check too, so timing does not reveal accounts.
 */
export async function findUserByCredentials(
  db: ProviderDb,
  email: string,
  password: string,
): Promise<User | undefined> {
  const user = await findUserByEmail(db, email);
  const isMatch = await verifyPassword(user?.password_hash, password);
  return user && isMatch ? user : undefined;
}

/**
 * The `q` cidaas sends beside a sub (login failure redirect, register answer). Its exact form is not
 * public, only that it is a masked sub: ours keeps the first four characters.
 */
export function maskedSub(sub: string): string {
  return `${sub.slice(0, 4)}****`;
}

/** The namespace of identityIdOf's name-based UUIDs (a fixed random UUID, ours). */
const IDENTITY_ID_NAMESPACE = Buffer.from('6f1d2c7a4b8e4f0d9a3c5e7b1d2f4a6c', 'hex');

/**
 * The id of the user's one identity (provider "self"), as cidaas's profile answer carries it beside
 * the sub (`identity._id`) and its admin update names the identity by. The embedded provider keeps
 * one identity per user and stores no id for it: a UUID v5 of the sub, the same at every call.
 */
export function identityIdOf(sub: string): string {
  const bytes = createHash('sha1').update(IDENTITY_ID_NAMESPACE).update(sub, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function hasRequiredRoles(userRoles: readonly string[], requiredRoles: readonly string[]): boolean {
  return requiredRoles.every((role) => userRoles.includes(role));
}

export const DEMO_USER = {
  email: 'demo@concierge.test',
  password: 'Demo-Passw0rd!',
  status: 'VERIFIED',
  email_verified: true,
  given_name: 'Demo',
  family_name: 'Mieter',
  locale: 'de',
} as const satisfies NewUser;

/**
 * The console's demo people (issue 30): an operator, who sees every tenant, and the property managers
 * of the tenants demo and lacleman, by the roles and the group the server's defaults read (CONSOLE_OPERATOR_ROLE,
 * CONSOLE_MANAGER_ROLE; a group per tenant, named by its subdomain).
 */
export const DEMO_CONSOLE_USERS = [
  {
    email: 'operator@concierge.test',
    password: 'Operator-Passw0rd!',
    given_name: 'Olivia',
    family_name: 'Operator',
    locale: 'en',
    roles: ['concierge_operator'],
  },
  {
    email: 'verwaltung@concierge.test',
    password: 'Verwaltung-Passw0rd!',
    given_name: 'Vera',
    family_name: 'Verwalterin',
    locale: 'de',
    groups: [{ groupId: 'demo', roles: ['concierge_manager'] }],
  },
  {
    email: 'gerance@concierge.test',
    password: 'Gerance-Passw0rd!',
    given_name: 'Gaëlle',
    family_name: 'Gérante',
    locale: 'fr',
    groups: [{ groupId: 'lacleman', roles: ['concierge_manager'] }],
  },
] satisfies NewUser[];

/** Idempotent: an existing demo user (maybe with a changed password or status) is left alone. */
export async function seedDemoUser(db: ProviderDb): Promise<void> {
  const users: readonly NewUser[] = [DEMO_USER, ...DEMO_CONSOLE_USERS];
  for (const user of users) {
    if (!(await findUserByEmail(db, user.email))) await createUser(db, user);
  }
}
