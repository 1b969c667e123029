/** A failure the CLI reports in one line and exits with: 1 the server's side, 2 wrong usage. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(`${message}\nSee --help.`, 2);
