import { describe, expect, it } from 'vitest';
import { type RequestState, requestReducer, usableRequestId } from './request-state';

const info = { client_name: 'Demo' };

describe('the sign-in request state machine', () => {
  it('is ready once the request id was checked, and only then usable by a form', () => {
    const checking: RequestState = { status: 'checking', requestId: 'r1' };
    expect(usableRequestId(checking)).toBe('');
    const ready = requestReducer(checking, { type: 'checked', requestId: 'r1', clientInfo: info });
    expect(ready).toEqual({ status: 'ready', requestId: 'r1', clientInfo: info });
    expect(usableRequestId(ready)).toBe('r1');
  });

  it('keeps a ready request when the same id is checked again, and checks a new id', () => {
    const ready: RequestState = { status: 'ready', requestId: 'r1', clientInfo: info };
    expect(requestReducer(ready, { type: 'check', requestId: 'r1' })).toBe(ready);
    expect(requestReducer(ready, { type: 'check', requestId: 'r2' })).toEqual({
      status: 'checking',
      requestId: 'r2',
    });
  });

  it('checks an unavailable request again when it is asked to (a fresh id may now work)', () => {
    const unavailable: RequestState = { status: 'unavailable', requestId: 'r1' };
    expect(requestReducer(unavailable, { type: 'check', requestId: 'r1' }).status).toBe('checking');
    expect(usableRequestId(unavailable)).toBe('');
  });

  it('can end unavailable or redirecting, keeping the id it had', () => {
    const checking: RequestState = { status: 'checking', requestId: 'r1' };
    expect(requestReducer(checking, { type: 'unavailable' })).toEqual({
      status: 'unavailable',
      requestId: 'r1',
    });
    expect(requestReducer(checking, { type: 'redirecting' })).toEqual({
      status: 'redirecting',
      requestId: 'r1',
    });
  });
});
