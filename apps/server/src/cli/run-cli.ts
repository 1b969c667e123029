import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createBatchBodySchema, MAX_CODES_PER_REQUEST } from '../admin/admin-schemas';
import { DEFAULT_TENANTS_FILE } from '../config';
import { AdminClient } from './admin-client';
import * as batches from './batch-commands';
import { checkTenants } from './check-tenants';
import { CliError, usageError } from './cli-error';
import type { CliOutput } from './command-parts';
import * as commands from './commands';
import * as invitations from './invitation-commands';
import { USAGE } from './usage';

const OPTIONS = {
  tenant: { type: 'string' },
  count: { type: 'string' },
  csv: { type: 'string' },
  status: { type: 'string' },
  email: { type: 'string' },
  language: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  before: { type: 'string' },
  building: { type: 'string' },
  units: { type: 'string' },
  expires: { type: 'string' },
  pdf: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The admin CLI without the process around it: arguments and environment in, exit code out. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, output: CliOutput): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw usageError((error as Error).message);
    }
    const { values, positionals } = parsed;
    if (values.help || positionals.length === 0) {
      output.out(USAGE);
      return positionals.length === 0 && !values.help ? 2 : 0;
    }
    const [group, action, ...rest] = positionals;
    const command = `${group} ${action ?? ''}`.trim();
    const client = () => new AdminClient(env);
    // `npm run --workspace` starts us in apps/server; a relative path means where the user typed it.
    const path = (file: string) => resolve(env.INIT_CWD ?? process.cwd(), file);
    const list = {
      tenant: values.tenant,
      limit: integer(values.limit, '--limit'),
      offset: integer(values.offset, '--offset'),
    };
    switch (command) {
      case 'codes create':
        noMore(rest);
        await commands.createCodes(client(), output, {
          tenant: required(values.tenant, '--tenant'),
          count: codeCount(integer(values.count, '--count')),
          csvFile: values.csv === undefined ? undefined : path(values.csv),
        });
        break;
      case 'codes list':
        noMore(rest);
        await commands.listCodes(client(), output, { ...list, status: values.status });
        break;
      case 'codes revoke':
        // One code as ever; several at once all or none.
        if (rest.length > 1) await batches.revokeCodes(client(), output, rest);
        else await commands.revokeCode(client(), output, single(rest, 'CODE'));
        break;
      case 'batches create':
        noMore(rest);
        await batches.createBatch(client(), output, {
          tenant: required(values.tenant, '--tenant'),
          building: required(values.building, '--building'),
          unitsFile: path(required(values.units, '--units')),
          expiresAt: expiry(values.expires),
          csvFile: values.csv === undefined ? undefined : path(values.csv),
        });
        break;
      case 'batches list':
        noMore(rest);
        await batches.listBatches(client(), output, list);
        break;
      case 'batches show':
        await batches.showBatch(client(), output, single(rest, 'ID'));
        break;
      case 'batches revoke':
        await batches.revokeBatch(client(), output, single(rest, 'ID'));
        break;
      case 'batches export':
        await batches.exportBatch(client(), output, {
          id: single(rest, 'ID'),
          csvFile: values.csv === undefined ? undefined : path(values.csv),
        });
        break;
      case 'batches letters':
        await batches.printLetters(client(), output, {
          id: single(rest, 'ID'),
          pdfFile: path(required(values.pdf, '--pdf')),
        });
        break;
      case 'figures':
        noMore(rest);
        await batches.showFigures(client(), output, { tenant: values.tenant });
        break;
      case 'invitations create':
        noMore(rest);
        await invitations.createInvitation(client(), output, {
          tenant: required(values.tenant, '--tenant'),
          email: required(values.email, '--email'),
          ...(values.language ? { language: values.language } : {}),
        });
        break;
      case 'invitations list':
        noMore(rest);
        await invitations.listInvitations(client(), output, list);
        break;
      case 'invitations revoke':
        await invitations.revokeInvitation(client(), output, single(rest, 'ID'));
        break;
      case 'invitations resend':
        await invitations.resendInvitation(client(), output, single(rest, 'ID'));
        break;
      case 'invitations requests':
        noMore(rest);
        await invitations.listInvitationRequests(client(), output, list);
        break;
      case 'audit list':
        noMore(rest);
        await commands.listAudit(client(), output, {
          tenant: values.tenant,
          limit: list.limit,
          before: integer(values.before, '--before'),
        });
        break;
      case 'tenants check': {
        // The file as the server reads it: TENANTS_FILE, else the repository's registry.
        const file = rest.length > 0 ? single(rest, 'FILE') : (env.TENANTS_FILE ?? DEFAULT_TENANTS_FILE);
        await checkTenants(output, path(file));
        break;
      }
      case 'accounts unlock':
        noMore(rest);
        await commands.unlockAccount(client(), output, { email: required(values.email, '--email') });
        break;
      default:
        throw usageError(`Unknown command "${command}".`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    output.info(`Error: ${error.message}`);
    return error.exitCode;
  }
}

function required(value: string | undefined, name: string): string {
  if (!value) throw usageError(`${name} is required.`);
  return value;
}

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw usageError(`${name} must be a whole number, not "${value}".`);
  return Number(value);
}

function codeCount(count: number | undefined): number {
  if (count === undefined) return 1;
  if (count < 1 || count > MAX_CODES_PER_REQUEST) {
    throw usageError(`--count must be between 1 and ${MAX_CODES_PER_REQUEST}.`);
  }
  return count;
}

/** As the server takes it: a date-time with its offset, in the future. */
function expiry(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!createBatchBodySchema.shape.expiresAt.safeParse(value).success) {
    throw usageError(
      `--expires must be a date-time with its offset, in the future (e.g. 2027-03-31T23:59:59+02:00), not "${value}".`,
    );
  }
  return value;
}

function single(rest: string[], name: string): string {
  if (rest.length !== 1) throw usageError(`Name exactly one ${name}.`);
  return rest[0]!;
}

function noMore(rest: string[]): void {
  if (rest.length > 0) throw usageError(`Unexpected argument "${rest[0]}".`);
}
