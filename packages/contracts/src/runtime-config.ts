import { z } from 'zod';

export const ENVIRONMENTS = ['dev', 'test', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** spec §3: runtime config — env, cidaasBaseUrl, restApiBaseUrl, {product}ClientId; and the link lifetimes. */
export const runtimeConfigSchema = z.object({
  env: z.enum(ENVIRONMENTS),
  cidaasBaseUrl: z.url(),
  restApiBaseUrl: z.url(),
  propertyPortalClientId: z.string().min(1),
  /**
   * ours: how long an activation link lives, in minutes (the server's ACTIVATION_LINK_TTL_HOURS),
   * for the texts that say so (issue 25: durations from the configuration that enforces them).
   */
  activationLinkLifetimeMinutes: z.number().int().positive(),
  /** ours: how long a password-reset link lives, in minutes, as the provider is set up (RESET_LINK_LIFETIME_MINUTES). */
  resetLinkLifetimeMinutes: z.number().int().positive(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
