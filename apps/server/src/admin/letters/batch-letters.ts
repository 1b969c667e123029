import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { AppError } from '../../http/errors';
import type { LogoSource, TenantRegistry } from '../../tenants/tenant-registry';
import type { AdminActor } from '../admin-auth';
import { type BatchDeps, showCodeBatch } from '../batches-admin';
import { type LetterLogo, renderLetters } from './letters-pdf';

export interface BatchLettersDeps extends BatchDeps {
  registry: TenantRegistry;
}

/**
 * The letters of a batch's codes that can still register someone (state unused), one page each, in
 * the tenant's brand as the registry has it now: the first print, or a new one for letters lost.
 * A code used, revoked or expired gets no letter — it would only lead to an error page.
 */
export async function batchLetters(
  deps: BatchLettersDeps,
  id: string,
  actor: Pick<AdminActor, 'tenants'>,
): Promise<Buffer> {
  const { batch, codes } = await showCodeBatch(deps, id, actor);
  const entry = deps.registry.bySubdomain(batch.tenant);
  if (!entry) {
    throw new AppError(409, 'unknown_tenant', `The tenant "${batch.tenant}" is no longer in the registry.`);
  }
  const unused = codes.filter((code) => code.state === 'unused');
  if (unused.length === 0) {
    throw new AppError(
      409,
      'no_unused_codes',
      'No code of this batch is unused: there is no letter to print.',
    );
  }
  return renderLetters({
    brand: {
      displayName: entry.displayName,
      primaryColor: entry.brand.primaryColor,
      logo: await letterLogo(deps.registry.logoOf(entry)),
      ...(entry.contact ? { contact: entry.contact } : {}),
    },
    batch: { building: batch.building, expiresAt: batch.expiresAt ? new Date(batch.expiresAt) : null },
    units: unused.map((code) => ({
      unit: code.unit,
      name: code.name,
      language: code.language,
      code: code.code,
      registerUrl: code.registerUrl,
    })),
  });
}

/**
 * The logo the tenant's pages show (a published one, else the file's) as a letter can hold it; a
 * WebP logo file (which PDF cannot embed) is refused. A published logo is SVG, PNG or JPEG always.
 */
async function letterLogo(source: LogoSource): Promise<LetterLogo> {
  if ('logo' in source) {
    const { bytes, mediaType } = source.logo;
    if (mediaType === 'image/svg+xml') return { svg: bytes.toString('utf8') };
    return { image: bytes, type: mediaType === 'image/png' ? 'png' : 'jpeg' };
  }
  const file = source.file;
  const extension = extname(file).toLowerCase();
  if (extension === '.svg') return { svg: await readFile(file, 'utf8') };
  if (extension === '.png') return { image: await readFile(file), type: 'png' };
  if (extension === '.jpg' || extension === '.jpeg') return { image: await readFile(file), type: 'jpeg' };
  throw new AppError(
    409,
    'logo_not_printable',
    `The tenant's logo (${extension}) cannot go into a PDF: give the registry an SVG, PNG or JPEG logo.`,
  );
}
