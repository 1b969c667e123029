import { Text } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import type { LiveSaveStatus } from './use-live-preview';

interface BrandPreviewProps {
  previewUrls: { page: string; url: string }[];
  /** Counts the saves made as-you-go: each one loads the frames anew. */
  round: number;
  status: LiveSaveStatus;
}

const STATUS_TEXT = {
  saving: 'brand.previewSaving',
  saved: 'brand.previewUpdated',
  failed: 'brand.previewFailed',
} as const;

/** The tenant's portal pages as the draft makes them, each in a frame at a phone's width. */
export function BrandPreview({ previewUrls, round, status }: BrandPreviewProps) {
  const { t } = useTranslation();
  return (
    <>
      <Text mb="sm">{t('brand.previewHint')}</Text>
      {/* There from the start, so that a screen reader hears what a save as-you-go did. */}
      <p role="status" className="live-status">
        {status === 'saving' || status === 'saved' || status === 'failed' ? t(STATUS_TEXT[status]) : null}
      </p>
      <div className="preview-frames">
        {previewUrls.map(({ page, url }) => (
          <figure key={`${url}#${round}`} className="preview">
            <iframe
              title={t('brand.previewFrame', { page })}
              src={url}
              loading="lazy"
              width={360}
              height={640}
              className="preview-frame"
            />
            <figcaption className="preview-caption">{page}</figcaption>
          </figure>
        ))}
      </div>
    </>
  );
}
