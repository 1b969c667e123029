import { describe, expect, it } from 'vitest';
import { OIDC_CLIENT_ERROR_MESSAGES, OidcClientError } from './errors';

describe('OidcClientError', () => {
  it('carries status 417 and the SDK message (spec §8)', () => {
    const error = new OidcClientError(OIDC_CLIENT_ERROR_MESSAGES.codeEmpty);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('OidcClientError');
    expect(error.status).toBe(417);
    expect(error.message).toBe('code cannot be empty');
    expect(Object.values(OIDC_CLIENT_ERROR_MESSAGES)).toEqual([
      'access_token cannot be empty',
      'refresh_token cannot be empty',
      'code cannot be empty',
    ]);
  });
});
