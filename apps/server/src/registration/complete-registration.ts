import { type ActivationDeps, issueActivation } from '../accounts/issue-activation';

/** A registration ends in an activation link and its e-mail: that is all it needs. */
export type RegistrationDeps = ActivationDeps;

export type CompletionOutcome = 'completed' | 'already_completed' | 'taken_by_another';

/**
 * Once the provider holds the identity: the code becomes used with its sub, the activation link is
 * created and its e-mail queued — in ONE transaction, with the code row locked, so that the request
 * and the reconciler (or two reconcilers) can never both complete the same code.
 */
export async function completeRegistration(
  deps: RegistrationDeps,
  registration: { code: string; email: string; sub: string; language: string | null },
): Promise<CompletionOutcome> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('registration_codes')
      .selectAll()
      .where('code', '=', registration.code)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return 'taken_by_another';
    if (row.status === 'used') return row.sub === registration.sub ? 'already_completed' : 'taken_by_another';
    // Unused again means the reconciler released the claim while the provider was still working:
    // the identity exists now, so the code is still this registration's.
    const isOurs =
      (row.status === 'pending' && row.claimed_email === registration.email) || row.status === 'unused';
    if (!isOurs) return 'taken_by_another';
    const now = new Date();
    const language = row.claimed_language ?? registration.language;
    await trx
      .updateTable('registration_codes')
      .set({
        status: 'used',
        sub: registration.sub,
        used_at: now,
        claimed_email: registration.email,
        claimed_at: row.claimed_at ?? now,
        claimed_language: language,
      })
      .where('code', '=', registration.code)
      .execute();
    await issueActivation(trx, deps, {
      email: registration.email,
      sub: registration.sub,
      tenant: row.tenant,
      language,
    });
    return 'completed';
  });
}
