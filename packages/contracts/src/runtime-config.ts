import { z } from 'zod';

export const ENVIRONMENTS = ['dev', 'test', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** spec §3: runtime config — env, cidaasBaseUrl, restApiBaseUrl, {product}ClientId. */
export const runtimeConfigSchema = z.object({
  env: z.enum(ENVIRONMENTS),
  cidaasBaseUrl: z.url(),
  restApiBaseUrl: z.url(),
  propertyPortalClientId: z.string().min(1),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
