import { Anchor, Stack, Text } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Layout } from '../app/Layout';
import { useTranslation } from '../i18n/use-translation';
import { ErrorMessage } from './Feedback';

/** What the tenant sees instead of a page that broke in the browser: what happened and a way on. */
function PageFailed() {
  const { t } = useTranslation();
  return (
    <Layout title={t('common.pageFailed.title')}>
      <ErrorMessage>
        <Stack gap="xs">
          <Text>{t('common.pageFailed.text')}</Text>
          <Text>
            {/* A full load: the server renders the page afresh. */}
            <Anchor href={window.location.href} c="inherit" underline="always" fw={700}>
              {t('common.pageFailed.reload')}
            </Anchor>
          </Text>
        </Stack>
      </ErrorMessage>
    </Layout>
  );
}

/**
 * A page that throws while the browser renders it (a text and its caller disagreeing, a bug) would
 * leave React with nothing to show: a blank page. This keeps the frame, the brand and the language
 * switcher around it, and says so in the tenant's language. The server answers a page that fails
 * to render there with its own branded page (ssr/error-page.ts).
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { hasFailed: boolean }> {
  override state = { hasFailed: false };

  static getDerivedStateFromError() {
    return { hasFailed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    // The browser's console is the one place a tenant's support can read it from.
    console.error('the page failed to render', error, info.componentStack);
  }

  override render() {
    return this.state.hasFailed ? <PageFailed /> : this.props.children;
  }
}
