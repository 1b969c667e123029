import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { ClientConfig } from '../config';
import type { ClientDirectory } from './clients';

/** A requestId is the uid of a pending interaction; an unknown or expired one is simply absent. */
export async function findInteraction(
  provider: Provider,
  requestId: string,
): Promise<Interaction | undefined> {
  return (await provider.Interaction.find(requestId)) ?? undefined;
}

export function clientOfInteraction(
  interaction: Interaction,
  clients: ClientDirectory,
): ClientConfig | undefined {
  const clientId = interaction.params.client_id;
  return typeof clientId === 'string' ? clients.get(clientId) : undefined;
}

/** The interaction's remaining lifetime, for saving it again without extending it. */
export function remainingSeconds(interaction: Interaction): number {
  return Math.max(1, interaction.exp - Math.floor(Date.now() / 1000));
}
