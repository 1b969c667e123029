import { isStrongPassword, type Language } from '@concierge/contracts';
import type { FastifyBaseLogger } from 'fastify';
import {
  claimRegistrationCode,
  findCodeHeldByEmail,
  findRegistrationCode,
  isExpiredCode,
  type RegistrationCodeRow,
  releaseRegistrationCode,
} from '../accounts/registration-codes';
import { type AppError, callError, providerUnreachable, tooManyRequests } from '../http/errors';
import { takeRateLimit } from '../http/rate-limit';
import { RATE_LIMITS, rulesOf } from '../http/rate-limit-rules';
import type { ProviderClient } from '../provider-client/provider-client';
import { describeResult } from '../provider-client/provider-result';
import type { SignInClient } from '../provider-client/sign-in-requests';
import { type CompletionOutcome, completeRegistration, type RegistrationDeps } from './complete-registration';
import { checkInvitation } from './invitation-check';
import { PASSWORD_RULE_MESSAGE } from './password-rule';
import { registerAtProvider } from './provider-registration';

export interface RegisterUserDeps extends RegistrationDeps {
  provider: ProviderClient;
  log: FastifyBaseLogger;
}

export interface RegisterUserInput {
  /** Normalised (trimmed, lower-case). */
  email: string;
  password: string;
  /** Lower-case version-4 UUID. */
  code: string;
  /** The subdomain of the tenant the request's client id belongs to. */
  tenant: string;
  /** That tenant's client: the provider registers users for a sign-in request of it. */
  client: SignInClient;
  inviteId: string | undefined;
  language: Language;
}

// The provider may have created the identity: the reconciler settles it once the provider answers
// and the activation e-mail follows, so the person is told to wait for it (not for how long: that
// depends on the provider), not that it failed.
const UNKNOWN_OUTCOME = callError(
  'register-user',
  503,
  'registration_pending',
  'The registration is being completed. The activation e-mail follows once it is.',
);

/** What the register call answers (spec §7: the portal reads only `success`). */
export interface RegisteredUser {
  sub: string;
  /** The activation e-mail went into the outbox. */
  activationMailQueued: boolean;
}

/**
 * ARCHITECTURE "Registration": check, claim the code (unused → pending), register the user at the
 * provider, then code used + activation + e-mail in one transaction. Every refusal is an AppError
 * with a code from the spec's catalogue (§8) and leaves nothing changed.
 */
export async function registerUser(
  deps: RegisterUserDeps,
  input: RegisterUserInput,
): Promise<RegisteredUser> {
  const { db, provider, log } = deps;
  if (!isStrongPassword(input.password))
    throw callError('register-user', 400, 'registration_error', PASSWORD_RULE_MESSAGE);

  const code = await findRegistrationCode(db, input.code);
  // Another tenant's code reads as unknown: a tenant learns nothing about other tenants' codes.
  if (!code || code.tenant !== input.tenant) throw codeRefusal(undefined);
  const checkedAt = new Date();
  await checkInvitation(db, {
    code: input.code,
    email: input.email,
    inviteId: input.inviteId,
    at: checkedAt,
  });
  if (code.status === 'revoked' || isExpiredCode(code, checkedAt)) throw codeRefusal(code, checkedAt);
  const held = await findCodeHeldByEmail(db, input.email);
  // The same form sent again while its registration is being settled: the same answer as before.
  if (held?.status === 'pending' && held.code === input.code) throw UNKNOWN_OUTCOME;
  if (held) throw await emailRegisteredHere(db, input.code);
  if (code.status !== 'unused') throw codeRefusal(code, checkedAt);
  await ensureUnknownToProvider(deps, input.email, input.code);

  const claimedAt = new Date();
  const claim = await claimRegistrationCode(db, {
    code: input.code,
    tenant: input.tenant,
    email: input.email,
    language: input.language,
    at: claimedAt,
  });
  if (claim === 'email_taken') throw await emailRegisteredHere(db, input.code);
  // Somebody else claimed it in the meantime, or it expired since the check: answer as if we had
  // seen that from the start.
  if (claim === 'not_unused') throw codeRefusal(await findRegistrationCode(db, input.code), claimedAt);

  const registration = await registerAtProvider(provider, {
    email: input.email,
    password: input.password,
    language: input.language,
    client: input.client,
  });
  switch (registration.outcome) {
    case 'email_taken':
      await releaseRegistrationCode(db, { code: input.code, email: input.email });
      throw await emailRegisteredAtProvider(db, input.code);
    case 'refused':
      await releaseRegistrationCode(db, { code: input.code, email: input.email });
      log.warn({ reason: registration.reason }, 'the provider refused a registration');
      throw callError(
        'register-user',
        400,
        'errorCreatingNewUser',
        'The account could not be created. Please try again or contact support.',
      );
    case 'not_sent':
      await releaseRegistrationCode(db, { code: input.code, email: input.email });
      log.warn({ reason: registration.reason }, 'registration: not sent to the provider');
      if (registration.isUnreachable) {
        throw providerUnreachable('The identity provider cannot be reached. Please try again later.');
      }
      throw callError(
        'register-user',
        503,
        'registration_error',
        'The account cannot be created right now. Please try again later.',
      );
    case 'field_required':
      // The tenant's registration setup at the provider asks for more than the portal does: an
      // operator's setting (docs/cidaas-setup.md), never the person's fault.
      await releaseRegistrationCode(db, { code: input.code, email: input.email });
      log.error(
        { reason: registration.reason },
        'the provider requires a registration field the portal does not ask for',
      );
      throw callError(
        'register-user',
        400,
        'registration_error',
        'The account could not be created. Please contact your property manager.',
      );
    case 'unknown':
      // Not a failure: the identity may exist. The code stays pending until the reconciler knows.
      log.warn({ reason: registration.reason }, 'registration outcome unknown; the reconciler settles it');
      throw UNKNOWN_OUTCOME;
    case 'created':
      break;
  }

  let completion: CompletionOutcome;
  try {
    completion = await completeRegistration(deps, {
      code: input.code,
      email: input.email,
      sub: registration.sub,
      language: input.language,
    });
  } catch (error) {
    // The identity exists and the code is still pending: the reconciler completes it later.
    // Only the error's name and SQLSTATE: a database message may quote the values of the row.
    const { name, code } = error as { name?: string; code?: string };
    log.error(
      { sub: registration.sub, name, code },
      'recording a registration failed; the reconciler settles it',
    );
    throw UNKNOWN_OUTCOME;
  }
  if (completion === 'taken_by_another') {
    log.error({ sub: registration.sub }, 'an identity was created for a code another registration holds');
    throw codeRefusal(await findRegistrationCode(db, input.code));
  }
  return { sub: registration.sub, activationMailQueued: true };
}

async function ensureUnknownToProvider(deps: RegisterUserDeps, email: string, code: string): Promise<void> {
  const user = await deps.provider.findUserByEmail(email);
  if (user.kind === 'answer') {
    if (user.data) throw await emailRegisteredAtProvider(deps.db, code);
    return;
  }
  deps.log.warn({ outcome: describeResult(user) }, 'registration: the user look-up failed');
  if (user.kind === 'unknown') {
    throw providerUnreachable('The identity provider cannot be reached. Please try again later.');
  }
  throw callError(
    'register-user',
    502,
    'registration_error',
    'The account cannot be created right now. Please try again later.',
  );
}

/** spec §8: what a code that cannot be used (at `at`) is called. */
function codeRefusal(code: RegistrationCodeRow | undefined, at = new Date()): AppError {
  if (!code) {
    return callError(
      'register-user',
      400,
      'registrationcode_does_not_exists',
      'This registration code does not exist.',
    );
  }
  if (code.status === 'revoked') {
    return callError(
      'register-user',
      400,
      'registrationCodeInvalid',
      'This registration code is no longer valid.',
    );
  }
  // ours (issue 30): the letter's code was valid until a date; the property manager sends a new one.
  if (isExpiredCode(code, at)) {
    return callError(
      'register-user',
      400,
      'registration_code_expired',
      'This registration code has expired. Please ask your property manager for a new letter.',
    );
  }
  return callError(
    'register-user',
    409,
    'registration_code_already_registered_db',
    'This registration code has already been used.',
  );
}

/**
 * The spec's distinct codes (§8) tell whether an e-mail has an account, and an unused code stays
 * unused, so one code could probe address after address: each answer that says "registered" counts
 * against the code, and past a few the code answers 429 (docs/decisions.md, "Accepted risks").
 */
async function emailRegistered(
  db: RegisterUserDeps['db'],
  code: string,
  refusal: AppError,
): Promise<AppError> {
  const [perCode] = rulesOf(RATE_LIMITS.registeredAnswers, { code });
  const probe = await takeRateLimit(db, perCode!);
  return probe.isWithinLimit ? refusal : tooManyRequests(probe.retryAfterSeconds);
}

function emailRegisteredHere(db: RegisterUserDeps['db'], code: string): Promise<AppError> {
  return emailRegistered(
    db,
    code,
    callError(
      'register-user',
      409,
      'email_already_registered_db',
      'This e-mail address is already registered.',
    ),
  );
}

function emailRegisteredAtProvider(db: RegisterUserDeps['db'], code: string): Promise<AppError> {
  return emailRegistered(
    db,
    code,
    callError(
      'register-user',
      409,
      'email_already_registered_identity_provider',
      'This e-mail address is already registered.',
    ),
  );
}
