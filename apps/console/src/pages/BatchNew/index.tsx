import type { BatchFormField, ConsoleFormAgain, ConsoleTenant } from '@concierge/contracts';
import { Anchor, Button, Code, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { paths } from '../../app/paths';
import { ErrorSummary } from '../../components/ErrorSummary';
import { FileField } from '../../components/FileField';
import { fieldId, useFormProblems } from '../../components/form-problems';
import { PostForm } from '../../components/PostForm';
import { useTranslation } from '../../i18n/use-translation';

/** What a line of the units field looks like: the same in every language, as the server reads it. */
const UNITS_EXAMPLE = '3.1;Anna Muster;de\n3.2;Luca Rossi;it\n4.1';

interface BatchNewPageProps {
  tenant: ConsoleTenant;
  form: ConsoleFormAgain<BatchFormField> | null;
}

/** A new batch of letters for a building: its units typed, or a CSV file. */
export default function BatchNewPage({ tenant, form }: BatchNewPageProps) {
  const { t } = useTranslation();
  const problems = useFormProblems(form);
  const label = {
    building: t('batchNew.building'),
    expiresOn: t('batchNew.expiresOn'),
    units: t('batchNew.units'),
    unitsFile: t('batchNew.unitsFile'),
  } satisfies Record<BatchFormField, string>;
  const fields = Object.keys(label) as BatchFormField[];
  return (
    <Stack gap="md" className="narrow">
      <Text>{t('batchNew.intro')}</Text>
      <PostForm action={paths.batches(tenant.subdomain)} multipart>
        <Stack gap="md">
          <ErrorSummary
            problems={fields.map((field) => ({
              field,
              label: label[field],
              message: problems.errorOf(field),
            }))}
            formError={problems.formError}
          />
          <TextInput
            id={fieldId('building')}
            name="building"
            label={label.building}
            description={t('batchNew.buildingHint')}
            defaultValue={problems.valueOf('building')}
            error={problems.errorOf('building')}
            required
          />
          <TextInput
            id={fieldId('expiresOn')}
            name="expiresOn"
            type="date"
            label={label.expiresOn}
            description={t('batchNew.expiresOnHint')}
            defaultValue={problems.valueOf('expiresOn')}
            error={problems.errorOf('expiresOn')}
          />
          <Textarea
            id={fieldId('units')}
            name="units"
            label={label.units}
            description={
              <>
                {t('batchNew.unitsHint')}
                {/* Inline, in a block of its own: a description is a paragraph, which holds no <pre>. */}
                <Code className="units-example">{UNITS_EXAMPLE}</Code>
              </>
            }
            defaultValue={problems.valueOf('units')}
            error={problems.errorOf('units')}
            rows={10}
            className="units-field"
            spellCheck={false}
          />
          <FileField
            name="unitsFile"
            label={label.unitsFile}
            description={t('batchNew.unitsFileHint')}
            accept=".csv,text/csv"
            error={problems.errorOf('unitsFile')}
          />
          <Group gap="md">
            <Button type="submit">{t('batchNew.submit')}</Button>
            <Anchor href={paths.tenant(tenant.subdomain)}>{t('batchNew.cancel')}</Anchor>
          </Group>
        </Stack>
      </PostForm>
    </Stack>
  );
}
