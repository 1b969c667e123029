import {
  type BrandFormField,
  type ConsoleBrand,
  type ConsoleFormAgain,
  type TenantFlags,
  THEME_PRESETS,
} from '@concierge/contracts';
import { Button, Checkbox, Fieldset, Input, NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { type Ref, useState } from 'react';
import { paths } from '../../app/paths';
import { ErrorSummary } from '../../components/ErrorSummary';
import { FileField } from '../../components/FileField';
import { fieldId, useFormProblems } from '../../components/form-problems';
import { PostForm } from '../../components/PostForm';
import { useTranslation } from '../../i18n/use-translation';

const FLAGS = [
  'registrationEnabled',
  'inviteEnabled',
  'hideRegisterLoginLink',
  'skipFreshRequestIdRedirect',
  'useSpecialLogo',
] as const satisfies readonly (keyof TenantFlags)[];

const OFFICE_HOURS_LANGUAGES = ['de', 'fr', 'it', 'en'] as const;

interface BrandFormProps {
  tenant: string;
  brand: ConsoleBrand;
  form: ConsoleFormAgain<BrandFormField> | null;
  formRef: Ref<HTMLFormElement>;
  /** Whether the error summary takes the focus: not while the script saves as someone types. */
  summaryTakesFocus: boolean;
}

/** The brand's fields, filled with the draft (or the published brand), or with what was sent back. */
export function BrandForm({ tenant, brand, form, formRef, summaryTakesFocus }: BrandFormProps) {
  const { t } = useTranslation();
  const problems = useFormProblems(form);
  // A form sent back holds what was typed; an unticked box is not sent at all.
  const text = (field: BrandFormField, stored: string | undefined) => problems.valueOf(field) ?? stored ?? '';
  const checked = (flag: (typeof FLAGS)[number]) =>
    problems.isBack ? problems.valueOf(flag) === 'on' : brand.flags[flag];
  const [color, setColor] = useState(() => text('primaryColor', brand.primaryColor));
  const label: Record<BrandFormField, string> = {
    displayName: t('brand.displayName'),
    primaryColor: t('brand.primaryColor'),
    themePreset: t('brand.themePreset'),
    logo: t('brand.logo'),
    stylesheet: t('brand.stylesheet'),
    contactName: t('brand.contactName'),
    contactPhone: t('brand.contactPhone'),
    contactEmail: t('brand.contactEmail'),
    'officeHours.de': t('brand.officeHours', { language: t('language.de') }),
    'officeHours.fr': t('brand.officeHours', { language: t('language.fr') }),
    'officeHours.it': t('brand.officeHours', { language: t('language.it') }),
    'officeHours.en': t('brand.officeHours', { language: t('language.en') }),
    registrationEnabled: t('brand.flag.registrationEnabled'),
    inviteEnabled: t('brand.flag.inviteEnabled'),
    hideRegisterLoginLink: t('brand.flag.hideRegisterLoginLink'),
    skipFreshRequestIdRedirect: t('brand.flag.skipFreshRequestIdRedirect'),
    useSpecialLogo: t('brand.flag.useSpecialLogo'),
  };
  const input = (field: BrandFormField) => ({
    id: fieldId(field),
    name: field,
    label: label[field],
    error: problems.errorOf(field),
  });
  const colorId = fieldId('primaryColor');
  const colorError = problems.errorOf('primaryColor');
  return (
    <PostForm action={paths.brand(tenant)} multipart formRef={formRef}>
      <Stack gap="md">
        <ErrorSummary
          problems={(Object.keys(label) as BrandFormField[]).map((field) => ({
            field,
            label: label[field],
            message: problems.errorOf(field),
          }))}
          formError={problems.formError}
          takesFocus={summaryTakesFocus}
        />
        <TextInput {...input('displayName')} defaultValue={text('displayName', brand.displayName)} required />
        <Input.Wrapper id={colorId} label={label.primaryColor} error={colorError}>
          <div className="color-field">
            <input
              id={colorId}
              type="color"
              name="primaryColor"
              defaultValue={color}
              onInput={(event) => setColor(event.currentTarget.value)}
              aria-describedby={`${colorId}-value${colorError ? ` ${colorId}-error` : ''}`}
              aria-invalid={colorError ? true : undefined}
              className="color-input"
            />
            <output id={`${colorId}-value`} htmlFor={colorId} className="color-value">
              {color}
            </output>
          </div>
        </Input.Wrapper>
        <NativeSelect
          {...input('themePreset')}
          defaultValue={text('themePreset', brand.themePreset)}
          data={THEME_PRESETS.map((preset) => ({ value: preset, label: t(`brand.preset.${preset}`) }))}
        />
        <div className="logo-field">
          <img src={brand.logoUrl} alt={t('brand.currentLogo')} className="current-logo" />
          <FileField
            name="logo"
            label={label.logo}
            description={t('brand.logoHint')}
            accept="image/svg+xml,image/png,image/jpeg,.svg,.png,.jpg,.jpeg"
            error={problems.errorOf('logo')}
          />
        </div>
        <Textarea
          {...input('stylesheet')}
          description={t('brand.stylesheetHint')}
          defaultValue={text('stylesheet', brand.stylesheet)}
          rows={8}
          spellCheck={false}
          className="code-field"
        />
        <Fieldset legend={t('brand.contact')}>
          <Stack gap="md">
            <p className="fieldset-hint">{t('brand.contactHint')}</p>
            <TextInput {...input('contactName')} defaultValue={text('contactName', brand.contact?.name)} />
            <TextInput
              {...input('contactPhone')}
              type="tel"
              defaultValue={text('contactPhone', brand.contact?.phone)}
            />
            <TextInput
              {...input('contactEmail')}
              type="email"
              defaultValue={text('contactEmail', brand.contact?.email)}
            />
            {OFFICE_HOURS_LANGUAGES.map((language) => (
              <TextInput
                key={language}
                {...input(`officeHours.${language}`)}
                defaultValue={text(`officeHours.${language}`, brand.contact?.officeHours?.[language])}
              />
            ))}
          </Stack>
        </Fieldset>
        <Fieldset legend={t('brand.flags')}>
          <Stack gap="sm">
            {FLAGS.map((flag) => (
              <Checkbox key={flag} {...input(flag)} value="on" defaultChecked={checked(flag)} />
            ))}
          </Stack>
        </Fieldset>
        <div>
          <Button type="submit">{t('brand.submit')}</Button>
        </div>
      </Stack>
    </PostForm>
  );
}
