import type { ClientInfo, TenantInfo } from '@concierge/contracts';
import { type LockState, lockAccount, type StateChange, unlockAccount, verifyAccount } from './account-state';
import { acceptReset, initiateReset, type ResetAcceptance, type ResetInitiation } from './password-reset';
import { ProviderHttp, type ProviderHttpOptions } from './provider-http';
import type { ProviderResult } from './provider-result';
import { fetchClientInfo, fetchTenantInfo } from './public-info';
import { type NewProviderUser, type RegisteredUser, registerUser } from './registration';
import { generateRequestId, type SignInClient } from './sign-in-requests';
import { findUserByEmail, findUserBySub, type ProviderUser } from './users';

export type { ProviderHttpOptions as ProviderClientOptions };

/**
 * The one owner of the provider protocol on the server (docs/provider-protocol.md): every cidaas
 * path, header, body and code is behind these calls, the same against cidaas, the embedded provider
 * and the recorded-cidaas double. Each returns a ProviderResult; none throws.
 */
export class ProviderClient {
  readonly #http: ProviderHttp;

  constructor(options: ProviderHttpOptions) {
    this.#http = new ProviderHttp(options);
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** The provider failed its last calls and is not being asked now (the circuit breaker is open). */
  get isKnownAway(): boolean {
    return this.#http.isKnownAway;
  }

  generateRequestId(client: SignInClient): Promise<ProviderResult<string>> {
    return generateRequestId(this.#http, client);
  }

  clientInfo(requestId: string): Promise<ProviderResult<ClientInfo>> {
    return fetchClientInfo(this.#http, requestId);
  }

  tenantInfo(): Promise<ProviderResult<TenantInfo>> {
    return fetchTenantInfo(this.#http);
  }

  findUserByEmail(email: string): Promise<ProviderResult<ProviderUser | null>> {
    return findUserByEmail(this.#http, email);
  }

  findUserBySub(sub: string): Promise<ProviderResult<ProviderUser | null>> {
    return findUserBySub(this.#http, sub);
  }

  registerUser(user: NewProviderUser): Promise<ProviderResult<RegisteredUser>> {
    return registerUser(this.#http, user);
  }

  verifyAccount(sub: string): Promise<ProviderResult<StateChange>> {
    return verifyAccount(this.#http, sub);
  }

  lockAccount(sub: string): Promise<ProviderResult<StateChange>> {
    return lockAccount(this.#http, sub);
  }

  unlockAccount(sub: string, lock: LockState): Promise<ProviderResult<StateChange>> {
    return unlockAccount(this.#http, sub, lock);
  }

  initiateReset(reset: ResetInitiation): Promise<ProviderResult<string>> {
    return initiateReset(this.#http, reset);
  }

  acceptReset(reset: ResetAcceptance): Promise<ProviderResult<true>> {
    return acceptReset(this.#http, reset);
  }
}
