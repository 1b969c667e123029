import { CODE_STATES, type CodeFigures, type TenantFigures } from '@concierge/contracts';
import { formatNumber } from '../i18n/format';
import { useTranslation } from '../i18n/use-translation';

/** Every code, then each state's: the states as the contracts list them. */
const CODE_FIGURES = ['codes', ...CODE_STATES] as const satisfies readonly (keyof CodeFigures)[];

/** How many codes are in each state (and a tenant's open invitations), as a list of terms and counts. */
export function Figures({ figures }: { figures: CodeFigures | TenantFigures }) {
  const { t, language } = useTranslation();
  const entries: [string, number][] = CODE_FIGURES.map((key) => [t(`figures.${key}`), figures[key]]);
  if ('invitationsOpen' in figures) entries.push([t('figures.invitationsOpen'), figures.invitationsOpen]);
  return (
    <dl className="figures">
      {entries.map(([term, count]) => (
        <div key={term} className="figure">
          <dt>{term}</dt>
          <dd>{formatNumber(count, language)}</dd>
        </div>
      ))}
    </dl>
  );
}
