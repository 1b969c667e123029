import type { ClientInfo } from '@concierge/contracts';

/**
 * The sign-in request behind a page (spec §2), as one state machine:
 *
 *   checking ──► ready        the request id's client info was read
 *            ──► unavailable  none can be had (or the page needs none); the page says so
 *            ──► redirecting  none can be had: off to the customer's own /login
 *
 * A page the server rendered with a checked request starts `ready`. A new request id in the
 * address (a fresh one, or the tenant's own navigation) starts `checking` again.
 */
export type RequestState =
  | { status: 'checking'; requestId: string }
  | { status: 'ready'; requestId: string; clientInfo: ClientInfo }
  | { status: 'unavailable'; requestId: string }
  | { status: 'redirecting'; requestId: string };

export type RequestEvent =
  | { type: 'check'; requestId: string }
  | { type: 'checked'; requestId: string; clientInfo: ClientInfo }
  | { type: 'unavailable' }
  | { type: 'redirecting' };

export function requestReducer(state: RequestState, event: RequestEvent): RequestState {
  switch (event.type) {
    case 'check':
      return state.requestId === event.requestId && state.status !== 'unavailable'
        ? state
        : { status: 'checking', requestId: event.requestId };
    case 'checked':
      return { status: 'ready', requestId: event.requestId, clientInfo: event.clientInfo };
    case 'unavailable':
      return { status: 'unavailable', requestId: state.requestId };
    case 'redirecting':
      return { status: 'redirecting', requestId: state.requestId };
  }
}

/** The request id a form may send: only one whose client info was read. */
export function usableRequestId(state: RequestState): string {
  return state.status === 'ready' ? state.requestId : '';
}
