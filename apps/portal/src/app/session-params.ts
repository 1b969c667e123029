// What a tab keeps between its pages (sessionStorage: this tab only, gone when it closes).
function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const COUNTER_BEFORE_ATTEMPT_KEY = 'concierge.counterBeforeAttempt';

/**
 * The failed-login count just before a sign-in attempt. The provider redirects back at once, while
 * its event of the attempt may come seconds later: with this count the server can wait for it.
 */
export function rememberCounterBeforeAttempt(email: string, counter: number): void {
  storage()?.setItem(COUNTER_BEFORE_ATTEMPT_KEY, JSON.stringify({ email, counter }));
}

export function counterBeforeAttempt(email: string): number | undefined {
  try {
    const saved = JSON.parse(storage()?.getItem(COUNTER_BEFORE_ATTEMPT_KEY) ?? 'null') as {
      email?: unknown;
      counter?: unknown;
    } | null;
    return saved?.email === email && typeof saved.counter === 'number' ? saved.counter : undefined;
  } catch {
    return undefined;
  }
}

const RESET_LINK_KEY = 'concierge.resetLink';

/** The ids of a password-reset link (spec §2, /password-set), as the page reads them. */
export interface ResetLinkIds {
  requestId: string;
  resetRequestId: string;
  exchangeId: string;
}

/**
 * The reset link this tab arrived with. /password-set takes its one-time ids out of the address at
 * once (history, bookmarks, screenshots), so a reload — or a phone restoring a discarded tab — finds
 * them here instead. One link per tab: the next one replaces it, a successful reset forgets it, and
 * a page of another tenant never borrows it.
 */
export function rememberResetLink(subdomain: string, ids: ResetLinkIds): void {
  try {
    storage()?.setItem(RESET_LINK_KEY, JSON.stringify({ subdomain, ...ids }));
  } catch {
    // Storage full or refused: a reload then finds no link, as without this.
  }
}

export function rememberedResetLink(subdomain: string): ResetLinkIds | null {
  try {
    const saved = JSON.parse(storage()?.getItem(RESET_LINK_KEY) ?? 'null') as Record<string, unknown> | null;
    if (saved?.subdomain !== subdomain) return null;
    const { requestId, resetRequestId, exchangeId } = saved;
    return typeof requestId === 'string' &&
      typeof resetRequestId === 'string' &&
      typeof exchangeId === 'string'
      ? { requestId, resetRequestId, exchangeId }
      : null;
  } catch {
    return null;
  }
}

export function forgetResetLink(): void {
  storage()?.removeItem(RESET_LINK_KEY);
}
