import { Button, Card, Center, Field, Flex, Heading, NativeSelect, Separator, Spinner, Stack, Text } from '@chakra-ui/react';
import { useTheme } from 'next-themes';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Locale, SettingsOut, SettingsPatchIn, Theme } from '../../../server/src/modules/users/users.schemas';
import { useAppDispatch } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { TextField } from '../../components/TextField';
import { useSwitchLocale } from '../../i18n/useLocale';
import { userUpdated } from '../auth/authSlice';
import { AiModelSettings } from './AiModelSettings';
import { useGetSettingsQuery, useUpdateSettingsMutation } from './usersApi';

const LOCALE_OPTIONS: Locale[] = ['en', 'cn'];
const THEME_OPTIONS: Theme[] = ['light', 'dark', 'system'];

function SettingsForm({ saved }: { saved: SettingsOut }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const switchLocale = useSwitchLocale();
  const { setTheme } = useTheme();
  const [updateSettings, { isLoading }] = useUpdateSettingsMutation();
  const [displayName, setDisplayName] = useState(saved.display_name);
  const [locale, setLocale] = useState<Locale>(saved.locale);
  const [theme, setThemeChoice] = useState<Theme>(saved.theme);
  const [nameError, setNameError] = useState<string | null>(null);

  // Only what changed is sent: the call is a partial update.
  const changes: SettingsPatchIn = {};
  if (displayName.trim() !== saved.display_name) changes.display_name = displayName.trim();
  if (locale !== saved.locale) changes.locale = locale;
  if (theme !== saved.theme) changes.theme = theme;
  const dirty = Object.keys(changes).length > 0;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!displayName.trim()) {
      setNameError(intl.formatMessage({ id: 'validation.displayName.required' }));
      return;
    }
    if (!dirty) return;
    const result = await updateSettings(changes);
    if (!('data' in result) || !result.data) return;
    const now = result.data;
    dispatch(userUpdated({ name: now.display_name, locale: now.locale, theme: now.theme }));
    setTheme(now.theme);
    // A saved language is also the visitor's language choice: remember it and switch now (once
    // its texts are here, as the header's switcher does).
    if (changes.locale) switchLocale(now.locale);
  };

  const t = (id: string) => intl.formatMessage({ id });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Card.Root rounded="2xl" shadow="sm" borderColor="border.muted">
        <Card.Body gap="8">
          <Stack gap="5">
            <Stack gap="1">
              <Heading as="h2" size="md">
                <FormattedMessage id="settings.profile.title" />
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                <FormattedMessage id="settings.profile.subtitle" />
              </Text>
            </Stack>
            <TextField
              label={t('settings.displayName')}
              name="display_name"
              autoComplete="nickname"
              maxLength={100}
              value={displayName}
              error={nameError}
              onChange={(e) => {
                setDisplayName(e.target.value);
                setNameError(null);
              }}
            />
          </Stack>
          <Separator />
          <Stack gap="5">
            <Stack gap="1">
              <Heading as="h2" size="md">
                <FormattedMessage id="settings.preferences.title" />
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                <FormattedMessage id="settings.preferences.subtitle" />
              </Text>
            </Stack>
            <Flex gap="5" direction={{ base: 'column', sm: 'row' }}>
              <Field.Root flex="1">
                <Field.Label>{t('settings.language')}</Field.Label>
                <NativeSelect.Root size="lg">
                  <NativeSelect.Field name="locale" value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
                    {LOCALE_OPTIONS.map((option) => (
                      <option key={option} value={option} lang={option === 'cn' ? 'zh-CN' : 'en'}>
                        {t(`settings.language.${option}`)}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              <Field.Root flex="1">
                <Field.Label>{t('settings.theme')}</Field.Label>
                <NativeSelect.Root size="lg">
                  <NativeSelect.Field name="theme" value={theme} onChange={(e) => setThemeChoice(e.target.value as Theme)}>
                    {THEME_OPTIONS.map((option) => (
                      <option key={option} value={option}>
                        {t(`settings.theme.${option}`)}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
            </Flex>
          </Stack>
        </Card.Body>
        <Card.Footer justifyContent="flex-end" borderTopWidth="1px" borderColor="border.muted" pt="5">
          <Button type="submit" colorPalette="brand" loading={isLoading} disabled={!dirty}>
            {t('settings.save')}
          </Button>
        </Card.Footer>
      </Card.Root>
    </form>
  );
}

/** `/settings`: display name, language and theme of the signed-in user, and their own AI model. */
export function SettingsPage() {
  usePageTitle('settings.title');
  const { data, isLoading, isError, refetch } = useGetSettingsQuery();

  return (
    <Stack gap="8" maxW="3xl">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          <FormattedMessage id="settings.title" />
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          <FormattedMessage id="settings.subtitle" />
        </Text>
      </Stack>
      {isLoading ? (
        <Center py="16">
          <Spinner color="brand.solid" />
        </Center>
      ) : data ? (
        // Re-mounted when the saved values change, so the form starts from what the server holds.
        <>
          <SettingsForm key={`${data.display_name}|${data.locale}|${data.theme}`} saved={data} />
          <AiModelSettings key={JSON.stringify(data.ai_model)} saved={data.ai_model} />
        </>
      ) : isError ? (
        <Stack gap="3" align="flex-start">
          <Text color="fg.muted">
            <FormattedMessage id="settings.loadFailed" />
          </Text>
          <Button variant="outline" onClick={() => refetch()}>
            <FormattedMessage id="common.retry" />
          </Button>
        </Stack>
      ) : null}
    </Stack>
  );
}
