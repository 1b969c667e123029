import { describe, expect, it } from 'vitest';
import {
  passwordResetInitErrorKey,
  passwordSetErrorKey,
  registerErrorKey,
  verificationErrorKey,
} from './error-keys';

describe('error keys (spec §8)', () => {
  it('maps a known registration code to its message', () => {
    expect(registerErrorKey('email_already_registered_db')).toBe(
      'register.error.email_already_registered_db',
    );
    expect(registerErrorKey('registrationCodeInvalidFormat', 'default')).toBe(
      'register.error.registrationCodeInvalidFormat',
    );
  });

  it('falls back to errorCreatingNewUser for a failed submit and to default for the query', () => {
    expect(registerErrorKey('whatever')).toBe('register.error.errorCreatingNewUser');
    expect(registerErrorKey(undefined)).toBe('register.error.errorCreatingNewUser');
    expect(registerErrorKey('whatever', 'default')).toBe('register.error.default');
  });

  it('says "try again in a few minutes" on every page when the provider or the database is out', () => {
    for (const map of [
      registerErrorKey,
      verificationErrorKey,
      passwordResetInitErrorKey,
      passwordSetErrorKey,
    ]) {
      expect(map('provider_unreachable')).toBe('common.providerUnreachable');
      expect(map('service_unavailable')).toBe('common.serviceUnavailable');
    }
  });

  it('never lets an inherited property name through', () => {
    for (const code of ['constructor', '__proto__', 'toString', 'title', 'success.text'])
      expect(registerErrorKey(code, 'default')).toBe('register.error.default');
  });

  it('maps verification, reset-init and set-password codes, else their default', () => {
    expect(verificationErrorKey('missing_variables')).toBe('verification.error.missing_variables');
    expect(verificationErrorKey('nope')).toBe('verification.error.default');
    expect(passwordResetInitErrorKey('too_many_requests')).toBe(
      'password_reset.init.error.too_many_requests',
    );
    expect(passwordResetInitErrorKey(null)).toBe('password_reset.init.error.default');
    expect(passwordSetErrorKey('link_invalid')).toBe('password_reset.reset.error.link_invalid');
    expect(passwordSetErrorKey('nope')).toBe('password_reset.reset.error.default');
  });

  it('shows the missing-parameter message only where the page knows which parameter is missing', () => {
    expect(passwordSetErrorKey('missing_url_query_param')).toBe('password_reset.reset.error.default');
  });
});
