import type { CodeState } from '@concierge/contracts';
import { Badge } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';

/**
 * A colour per state, each at 4.5:1 or more on white and on a striped row's grey (WCAG 1.4.3); the
 * word says the state, the colour only helps to scan. Mantine's green.9 reads at 4.1:1 there.
 */
const STATE_COLOR: Record<CodeState, string> = {
  unused: 'blue.9',
  pending: 'violet.9',
  used: 'cyan.9',
  activated: '#1f6f32',
  locked: 'red.9',
  revoked: 'gray.8',
  expired: 'gray.7',
};

export function CodeStateBadge({ state }: { state: CodeState }) {
  const { t } = useTranslation();
  return <Badge color={STATE_COLOR[state]}>{t(`codeState.${state}`)}</Badge>;
}
