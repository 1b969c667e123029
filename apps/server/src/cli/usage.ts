export const USAGE = `Concierge admin: registration codes, invitations, locked accounts, the audit log and the tenant registry.

Usage: npm run admin --workspace @concierge/server -- <command> [options]

Commands:
  codes create --tenant T [--count N] [--csv FILE]
      Creates N (default 1, at most 10000) unused codes for tenant T. Writes them as CSV
      (code,tenant,register_url) to FILE, or to standard output without --csv.
  codes list [--tenant T] [--status unused|pending|used|revoked] [--limit N] [--offset N]
      Lists codes, oldest first (at most 1000 unless --limit says otherwise).
  codes revoke CODE
      Revokes an unused code (and its open invitation).
  invitations create --tenant T --email E [--language de|fr|it|en]
      Creates a code bound to E and e-mails the invitation (language default de).
  invitations list [--tenant T] [--limit N] [--offset N]
  invitations revoke ID
      Withdraws an invitation and its code, unless somebody has registered with it.
  accounts unlock --email E
      Unlocks the account of E as a password reset would, without a new password: its failed
      sign-ins no longer count, and Concierge's lock and the provider's block are lifted. A block
      set in the provider's own admin stays. Unlocking an account that is not locked changes nothing.
  tenants check [FILE]
      Checks a tenant registry (default TENANTS_FILE, else the repository's) as the server does at
      start: its fields, its cross-checks and the brand files beside it. Needs no server.
  audit list [--tenant T] [--limit N] [--before ID]
      Lists the changes made through the admin API, newest first (100 unless --limit says
      otherwise, at most 1000): when, which token (its fingerprint), what, and the outcome.
      --before ID continues with the entries older than ID, as the last line says.

Options:
  --help        Shows this text.

Environment:
  CONCIERGE_URL     The server (default http://localhost:8080).
  ADMIN_API_TOKEN   One of the server's admin API tokens (the server takes two while one is
                    rotated; the CLI sends one). Needed unless CONCIERGE_URL is this machine,
                    where the development token is the default.

Exit codes: 0 done, 1 the server refused or could not be reached, 2 wrong usage.
`;
