/** The SDK's error texts (spec §8), all answered with status 417 like cidaas's own SDK. */
export const OIDC_CLIENT_ERROR_MESSAGES = {
  accessTokenEmpty: 'access_token cannot be empty',
  refreshTokenEmpty: 'refresh_token cannot be empty',
  codeEmpty: 'code cannot be empty',
} as const;

export type OidcClientErrorMessage =
  (typeof OIDC_CLIENT_ERROR_MESSAGES)[keyof typeof OIDC_CLIENT_ERROR_MESSAGES];

export class OidcClientError extends Error {
  readonly status = 417;

  constructor(message: OidcClientErrorMessage) {
    super(message);
    this.name = 'OidcClientError';
  }
}
