import { formatLifetime, formatWait, type Language } from '@concierge/contracts';
import type { MessageKey, PlainMessageKey } from '../i18n/translator';
import { useTranslation } from '../i18n/use-translation';
import { useRuntimeConfig } from './runtime-config';

/**
 * How long the e-mailed links live, as the texts say it ("72 Stunden", "30 minuti"). A type, not an
 * interface, so that it passes as placeholder values (`t(key, durations)`).
 */
export type Durations = {
  /** `{{activationLinkLifetime}}`: the server's ACTIVATION_LINK_TTL_HOURS. */
  activationLinkLifetime: string;
  /** `{{resetLinkLifetime}}`: RESET_LINK_LIFETIME_MINUTES, as the provider is set up. */
  resetLinkLifetime: string;
};

/**
 * The link lifetimes of the runtime configuration (the page state, /config.json), written in the
 * page's language: the placeholder values of the texts that say how long a link works (issue 25:
 * never "a limited time").
 */
export function useDurations(): Durations {
  const { activationLinkLifetimeMinutes, resetLinkLifetimeMinutes } = useRuntimeConfig();
  const { language } = useTranslation();
  return {
    activationLinkLifetime: formatLifetime(activationLinkLifetimeMinutes, language),
    resetLinkLifetime: formatLifetime(resetLinkLifetimeMinutes, language),
  };
}

/** `{{wait}}` of a too_many_requests message: the server's Retry-After in whole minutes ("15 Minuten"). */
export function tooManyRequestsMessageValues(
  retryAfterSeconds: number,
  language: Language,
): { wait: string } {
  return { wait: formatWait(retryAfterSeconds, language) };
}

const TOO_MANY_REQUESTS = /(^|\.)too_many_requests$/;

type TooManyRequestsKey = Extract<MessageKey, `${string}too_many_requests`>;
/** What a form's error may say: a text that needs no value, or one that says how long to wait. */
export type ErrorTextKey = PlainMessageKey | TooManyRequestsKey;
const saysHowLongToWait = (key: ErrorTextKey): key is TooManyRequestsKey => TOO_MANY_REQUESTS.test(key);

/**
 * The text of a form's error: a `…too_many_requests` key says the real wait, from the answer's
 * Retry-After (PortalApiResult `retryAfterSeconds`, or the form outcome's without JavaScript); when
 * the wait is unknown (an `error` in the address, an answer without the header) it says "later"
 * (`common.tooManyRequests`) rather than a number nothing enforces. Any other key: its text.
 */
export function useErrorText(): (key: ErrorTextKey, retryAfterSeconds?: number) => string {
  const { t, language } = useTranslation();
  return (key, retryAfterSeconds) => {
    if (!saysHowLongToWait(key)) return t(key);
    if (retryAfterSeconds === undefined || !Number.isFinite(retryAfterSeconds))
      return t('common.tooManyRequests');
    return t(key, tooManyRequestsMessageValues(retryAfterSeconds, language));
  };
}
