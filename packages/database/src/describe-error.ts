/**
 * What of an error may go into a log. pg's DatabaseError quotes row values: `detail` ("Key
 * (email)=(anna@…) already exists."), `message` ('invalid input syntax for type uuid: "…"'), `where`
 * and the stack's first line — e-mails and tokens would end up in the log. Of such an error the log
 * gets its kind and SQLSTATE only; the answer's reference number (logged beside it) leads to the
 * request. Every other error is logged as it is: its stack is what makes it worth logging.
 */
export interface DatabaseErrorSummary {
  name: 'DatabaseError';
  /** SQLSTATE, e.g. 23505 for a unique violation. */
  code: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * pg sets `name` to the protocol message type ("error"), and apps may hold their own copy of pg, so
 * the error is recognised by its shape: a five-character SQLSTATE and a severity. A database error
 * wrapped as another error's `cause` counts too: the log serialiser prints causes as well.
 */
export function describeDatabaseError(error: unknown): DatabaseErrorSummary | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const { code, severity } = current as Error & { code?: unknown; severity?: unknown };
    if (typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string') {
      return { name: 'DatabaseError', code };
    }
    current = current.cause;
  }
  return undefined;
}

/** For `log.error({ err: loggableError(error) }, …)`: a database error's summary, anything else unchanged. */
export function loggableError(error: unknown): unknown {
  return describeDatabaseError(error) ?? error;
}
