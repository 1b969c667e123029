import type { ConsoleServerBundle } from '@concierge/contracts';
import type * as EntryServer from './entry-server';

// The server loads the built entry-server.js and types it as ConsoleServerBundle (@concierge/contracts).
// This fails the typecheck when the bundle's exports and that type drift apart. Type-only: nothing
// here is bundled.
type Satisfies<Actual extends Expected, Expected> = Actual;

export type EntryServerIsTheConsoleServerBundle = Satisfies<typeof EntryServer, ConsoleServerBundle>;
