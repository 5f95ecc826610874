import { Button, Card, Field, Flex, Heading, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AiModelOut } from '../../../server/src/modules/users/users.schemas';
import { TextField } from '../../components/TextField';
import { useUpdateSettingsMutation } from './usersApi';

type Provider = AiModelOut['provider'];
const PROVIDERS: Provider[] = ['openai-compatible', 'openai'];

/**
 * The user's own chat model for agents and AI steps. The key is write-only: the server says only
 * whether one is kept, so the field stays empty and an empty field keeps the stored key.
 */
export function AiModelSettings({ saved }: { saved: AiModelOut | null }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [updateSettings, { isLoading }] = useUpdateSettingsMutation();
  const [baseUrl, setBaseUrl] = useState(saved?.base_url ?? '');
  const [model, setModel] = useState(saved?.model ?? '');
  const [provider, setProvider] = useState<Provider>(saved?.provider ?? 'openai-compatible');
  const [apiKey, setApiKey] = useState('');
  const [modelError, setModelError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!model.trim()) {
      setModelError(t('settings.ai.modelRequired'));
      return;
    }
    const result = await updateSettings({
      ai_model: { base_url: baseUrl.trim() || null, model: model.trim(), provider, ...(apiKey ? { api_key: apiKey } : {}) },
    });
    if ('data' in result) setApiKey('');
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Card.Root rounded="2xl" shadow="sm" borderColor="border.muted">
        <Card.Body gap="5">
          <Stack gap="1">
            <Heading as="h2" size="md">
              <FormattedMessage id="settings.ai.title" />
            </Heading>
            <Text color="fg.muted" textStyle="sm">
              <FormattedMessage id={saved ? 'settings.ai.subtitleOwn' : 'settings.ai.subtitleServer'} />
            </Text>
          </Stack>
          <TextField
            label={t('settings.ai.baseUrl')}
            name="ai_base_url"
            type="url"
            maxLength={2000}
            placeholder="https://api.openai.com/v1"
            helperText={t('settings.ai.baseUrlHelp')}
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
          <Flex gap="5" direction={{ base: 'column', sm: 'row' }}>
            <TextField
              label={t('settings.ai.model')}
              name="ai_model"
              maxLength={200}
              placeholder="gpt-4o-mini"
              value={model}
              error={modelError}
              onChange={(e) => {
                setModel(e.target.value);
                setModelError(null);
              }}
            />
            <Field.Root>
              <Field.Label>{t('settings.ai.provider')}</Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field name="ai_provider" value={provider} onChange={(e) => setProvider(e.target.value as Provider)}>
                  {PROVIDERS.map((option) => (
                    <option key={option} value={option}>
                      {t(`settings.ai.provider.${option}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          </Flex>
          <TextField
            label={t('settings.ai.apiKey')}
            name="ai_api_key"
            type="password"
            autoComplete="off"
            maxLength={1000}
            helperText={t(saved?.has_api_key ? 'settings.ai.apiKeyKept' : 'settings.ai.apiKeyHelp')}
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
          />
        </Card.Body>
        <Card.Footer justifyContent="flex-end" gap="3" borderTopWidth="1px" borderColor="border.muted" pt="5">
          {saved ? (
            <Button variant="outline" disabled={isLoading} onClick={() => void updateSettings({ ai_model: null })}>
              {t('settings.ai.useServer')}
            </Button>
          ) : null}
          <Button type="submit" colorPalette="brand" loading={isLoading}>
            {t('settings.ai.save')}
          </Button>
        </Card.Footer>
      </Card.Root>
    </form>
  );
}
