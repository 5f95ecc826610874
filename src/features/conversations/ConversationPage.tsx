import { Button, Center, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { LuArrowLeft, LuWorkflow } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useParams } from 'react-router-dom';
import { LocaleLink } from '../../i18n/LocaleLink';
import { AgentBadge } from './AgentBadge';
import { useGetConversationQuery } from './conversationsApi';
import { ConversationView } from './ConversationView';

/** `/conversations/:conversationId`: one conversation, to read and go on with. */
export function ConversationPage() {
  const { conversationId = '' } = useParams();
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data, isLoading, isError } = useGetConversationQuery(conversationId);

  useEffect(() => {
    if (data) document.title = `${data.title || t('conversations.untitled')} · ${t('app.name')}`;
  }, [data?.title]); // eslint-disable-line react-hooks/exhaustive-deps

  const back = (
    <Button asChild variant="ghost" size="sm" alignSelf="flex-start">
      <LocaleLink to="/conversations">
        <LuArrowLeft aria-hidden />
        {t('conversations.back')}
      </LocaleLink>
    </Button>
  );

  if (isLoading) {
    return (
      <Center py="20">
        <Spinner />
      </Center>
    );
  }
  if (isError || !data) {
    return (
      <Stack align="center" gap="4" py="20">
        <Heading size="lg">{t('conversations.notFound')}</Heading>
        {back}
      </Stack>
    );
  }
  // The step agents' conversations go on in the step's settings, where their answers apply.
  const canWrite = data.agent === 'general' || data.agent === 'coordinator';
  return (
    <Stack gap="4" h={{ base: 'auto', lg: 'calc(100dvh - 10rem)' }} minH="md" maxW="4xl" w="full" mx="auto">
      {back}
      <Flex gap="3" align="center" wrap="wrap">
        <Heading as="h1" size="xl" flex="1" minW="0" lineClamp={1}>
          {data.title || t('conversations.untitled')}
        </Heading>
        <AgentBadge agent={data.agent} />
        {data.workflow_id && (
          <Button asChild size="xs" variant="outline">
            <LocaleLink to={`/workflows/${data.workflow_id}`}>
              <LuWorkflow aria-hidden />
              {t('conversations.openWorkflow')}
            </LocaleLink>
          </Button>
        )}
      </Flex>
      {canWrite ? (
        <ConversationView conversationId={data.id} canDryRun={data.agent === 'coordinator'} emptyText={t('conversations.emptyConversation')} />
      ) : (
        <>
          <ConversationView conversationId={data.id} emptyText={t('conversations.emptyConversation')} readOnly />
          <Text textStyle="sm" color="fg.muted">
            {t('conversations.stepAgentHint')}
          </Text>
        </>
      )}
    </Stack>
  );
}
