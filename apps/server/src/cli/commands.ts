import type { AdminAuditPage, AdminCode, AdminUnlockedAccount } from '@concierge/contracts';
import { toCsv } from '../admin/csv';
import type { AdminClient } from './admin-client';
import { type CliOutput, ensureNewFile, query, table, writeCsv } from './command-parts';

export interface ListOptions {
  tenant?: string;
  limit?: number;
  offset?: number;
}

export async function createCodes(
  client: AdminClient,
  output: CliOutput,
  options: { tenant: string; count: number; csvFile?: string },
): Promise<void> {
  await ensureNewFile(options.csvFile);
  const { codes } = await client.call<{ codes: AdminCode[] }>('POST', '/codes', {
    tenant: options.tenant,
    count: options.count,
  });
  const csv = toCsv(
    ['code', 'tenant', 'register_url'],
    codes.map((code) => [code.code, code.tenant, code.registerUrl]),
  );
  await writeCsv(output, csv, options.csvFile, `Created ${codes.length} codes`);
  output.info(
    `Created ${codes.length} codes for ${options.tenant}${options.csvFile ? ` in ${options.csvFile}` : ''}.`,
  );
}

export async function listCodes(
  client: AdminClient,
  output: CliOutput,
  options: ListOptions & { status?: string },
): Promise<void> {
  const { codes, total } = await client.call<{ codes: AdminCode[]; total: number }>(
    'GET',
    `/codes${query({ tenant: options.tenant, status: options.status, limit: options.limit, offset: options.offset })}`,
  );
  output.out(
    table(
      ['CODE', 'TENANT', 'STATUS', 'CREATED', 'E-MAIL'],
      codes.map((code) => [code.code, code.tenant, code.status, code.createdAt, code.claimedEmail ?? '']),
    ),
  );
  output.info(`${codes.length} of ${total} codes.`);
}

export async function revokeCode(client: AdminClient, output: CliOutput, code: string): Promise<void> {
  const revoked = await client.call<{ code: AdminCode }>('POST', `/codes/${encodeURIComponent(code)}/revoke`);
  output.info(`Code ${revoked.code.code} is ${revoked.code.status}.`);
}

export async function unlockAccount(
  client: AdminClient,
  output: CliOutput,
  options: { email: string },
): Promise<void> {
  const { account } = await client.call<{ account: AdminUnlockedAccount }>(
    'POST',
    '/accounts/unlock',
    options,
  );
  output.info(
    account.wasLocked || account.failedSignInsCleared > 0
      ? `Unlocked ${account.email} (${account.wasLocked ? 'it was locked' : 'it was not locked'}; ` +
          `${account.failedSignInsCleared} failed sign-ins cleared). The tenant signs in with their password.`
      : `${account.email} was not locked and had no failed sign-ins; nothing to do.`,
  );
}

export async function listAudit(
  client: AdminClient,
  output: CliOutput,
  options: { tenant?: string; limit?: number; before?: number },
): Promise<void> {
  const { entries, next } = await client.call<AdminAuditPage>(
    'GET',
    `/audit${query({ tenant: options.tenant, limit: options.limit, before: options.before })}`,
  );
  output.out(
    table(
      ['ID', 'TIME', 'BY', 'ACTION', 'TENANT', 'TARGET', 'OUTCOME', 'REQUEST'],
      entries.map((entry) => [
        String(entry.id),
        entry.at,
        entry.user ?? `token ${entry.token}`,
        entry.action,
        entry.tenant ?? '',
        auditTarget(entry),
        entry.outcome,
        entry.requestId,
      ]),
    ),
  );
  output.info(
    next === null
      ? `Listed ${entries.length}; no older ones.`
      : `Listed ${entries.length}; older ones with --before ${next}.`,
  );
}

/** What an entry changed: the code, invitation, batch or account, and how many codes it counted. */
function auditTarget(entry: AdminAuditPage['entries'][number]): string {
  if (entry.amount === null) return entry.target ?? '';
  const amount = `${entry.amount} codes`;
  return entry.target === null ? amount : `${entry.target} (${amount})`;
}
