export const USAGE = `Concierge admin: registration codes, a building's batches of them, invitations, locked accounts,
figures, the audit log and the tenant registry.

Usage: npm run admin --workspace @concierge/server -- <command> [options]

Commands:
  codes create --tenant T [--count N] [--csv FILE]
      Creates N (default 1, at most 10000) unused codes for tenant T. Writes them as CSV
      (code,tenant,register_url) to FILE, or to standard output without --csv.
  codes list [--tenant T] [--status unused|pending|used|revoked] [--limit N] [--offset N]
      Lists codes, oldest first (at most 1000 unless --limit says otherwise).
  codes revoke CODE [CODE …]
      Revokes an unused code (and its open invitation). Several codes (at most 1000) are revoked all
      or none: if one is unknown, being registered or used, the server names it and revokes none.
  batches create --tenant T --building B --units FILE [--expires DATE-TIME] [--csv FILE]
      Creates a code for each unit of building B (at most 2000). FILE is a CSV file with the header
      unit,name,language: the unit (1–40 characters, each once), whom the letter names (optional)
      and its language (de, fr, it or en; default de). A bad line is named before anything is made.
      --expires: the codes register no one from then on, a date-time with its offset in the future
      (e.g. 2027-03-31T23:59:59+02:00). Writes the codes as CSV (see batches export) to FILE, or to
      standard output without --csv.
  batches list [--tenant T] [--limit N] [--offset N]
      Lists batches, newest first, with how many codes are in each state.
  batches show ID
      Shows every code of a batch with its state: unused, pending (being registered), used
      (registered, with its e-mail), activated, locked (the account, now), revoked, expired.
  batches revoke ID
      Revokes every unused code of the batch (and their open invitations). A code being registered
      right now finishes its registration, or is revoked if that fails.
  batches export ID [--csv FILE]
      Writes the batch as CSV (unit,name,language,code,register_url,state,email) to FILE, or to
      standard output.
  batches letters ID --pdf FILE
      Writes the letters of the batch's unused codes to FILE as one PDF, an A4 page per unit in its
      language and the tenant's brand: the code, the register link and its QR code, the expiry and
      the office's contact. Codes used, revoked or expired get no letter.
  figures [--tenant T]
      Per tenant: codes issued and how many are unused, pending, used, activated, locked (accounts
      locked now), revoked and expired, and the invitations still open.
  invitations create --tenant T --email E [--language de|fr|it|en]
      Creates a code bound to E and e-mails the invitation (language default de). It is valid for
      INVITATION_VALIDITY_DAYS (the e-mail names the last day). An older invitation of T for E that
      nobody has registered with is withdrawn: a person holds one open invitation.
  invitations list [--tenant T] [--limit N] [--offset N]
  invitations revoke ID
      Withdraws an invitation and its code, unless somebody has registered with it.
  invitations resend ID
      Sends the invitation again as a new one (new id, code and expiry; same tenant, e-mail and
      language) and withdraws the old one; prints the new id. Refused once somebody has registered
      with it. Answers the invitee's request for a new invitation.
  invitations requests [--tenant T] [--limit N] [--offset N]
      Lists the invitees' requests for a new invitation (asked from the page of a withdrawn or
      expired one) that no new invitation has answered yet, oldest first.
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
