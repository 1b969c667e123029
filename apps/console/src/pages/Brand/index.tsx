import type { ConsoleTenant } from '@concierge/contracts';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { paths } from '../../app/paths';
import { PostForm } from '../../components/PostForm';
import { useTranslation } from '../../i18n/use-translation';
import { BrandForm } from './BrandForm';
import { BrandPreview } from './BrandPreview';
import { type BrandView, useLivePreview } from './use-live-preview';

/** A tenant's brand: edited as a draft beside a live preview, then published (or discarded). */
export default function BrandPage(props: BrandView) {
  const { t } = useTranslation();
  const { view, status, round, formRef } = useLivePreview(props);
  const { editor, form } = view;
  const tenant: ConsoleTenant = view.tenant;
  return (
    <Stack gap="xl">
      <Text>{editor.draft ? t('brand.draftNotice') : t('brand.publishedNotice')}</Text>
      {editor.contrastProblems.length > 0 && (
        <Alert color="yellow" title={t('brand.contrast')}>
          <ul className="plain-list">
            {editor.contrastProblems.map((problem) => (
              <li key={problem}>{t(`brand.contrastProblem.${problem}`)}</li>
            ))}
          </ul>
        </Alert>
      )}
      {editor.draft && editor.draftRevision !== null && (
        <Stack gap="xs">
          <Group gap="md" wrap="wrap">
            <PostForm action={paths.brandPublish(tenant.subdomain)}>
              <input type="hidden" name="revision" value={editor.draftRevision} />
              <Button type="submit">{t('brand.publish')}</Button>
            </PostForm>
            <PostForm action={paths.brandDiscard(tenant.subdomain)} confirm={t('brand.discardConfirm')}>
              <Button type="submit" color="red.9" variant="outline">
                {t('brand.discard')}
              </Button>
            </PostForm>
          </Group>
          <Text size="sm">{t('brand.publishHint')}</Text>
        </Stack>
      )}
      <div className="brand-layout">
        <section aria-label={t('brand.title')}>
          <BrandForm
            tenant={tenant.subdomain}
            brand={editor.draft ?? editor.published}
            form={form}
            formRef={formRef}
            summaryTakesFocus={round === 0}
          />
        </section>
        <section aria-labelledby="brand-preview">
          <Title order={2} id="brand-preview" size="h3" mb="sm">
            {t('brand.preview')}
          </Title>
          <BrandPreview previewUrls={editor.previewUrls} round={round} status={status} />
        </section>
      </div>
    </Stack>
  );
}
