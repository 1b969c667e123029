/** What the server's Node needs of the system, as Debian's packages. */
export const DEBIAN_PACKAGES: string[];
/** The user the image's process runs as. */
export const IMAGE_USER: { uid: number; name: string };
export const APP_DIR: string;
/** Builds the server's OCI image archive at `out` (default concierge-server.oci.tar at the root); its tag is the commit's first 12 digits. */
export function buildContainerImage(options?: { out?: string; quiet?: boolean }): Promise<{
  out: string;
  tag: string;
  /** Each layer's name and uncompressed size. */
  layers: { name: string; bytes: number }[];
}>;
