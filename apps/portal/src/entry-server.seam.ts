import type { PortalServerBundle } from '@concierge/contracts';
import type * as EntryServer from './entry-server';
import type { Messages } from './i18n/resources';

// The server loads the built entry-server.js and types it as PortalServerBundle (@concierge/contracts).
// This fails the typecheck when the bundle's exports and that type drift apart. Type-only: nothing
// here is bundled.
type Satisfies<Actual extends Expected, Expected> = Actual;

export type EntryServerIsThePortalServerBundle = Satisfies<
  typeof EntryServer,
  PortalServerBundle<Partial<Messages>>
>;
