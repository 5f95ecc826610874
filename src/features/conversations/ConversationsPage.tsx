import { Box, Button, Card, Flex, Heading, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuMessagesSquare, LuPlus, LuWorkflow } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyListState, PagedList } from '../../components/DataTable';
import { RelativeTime } from '../../components/RelativeTime';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocalePath } from '../../i18n/useLocale';
import { AgentBadge } from './AgentBadge';
import { useCreateConversationMutation, useListConversationsQuery } from './conversationsApi';
import { AGENT_KINDS, type AgentKind } from './conversationTypes';

const PAGE_SIZE = 20;

/** `/conversations`: the user's conversations with the agents, newest first, and a new one. */
export function ConversationsPage() {
  usePageTitle('nav.conversations');
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [page, setPage] = useState(1);
  const [agent, setAgent] = useState<AgentKind | ''>('');
  const { data, isLoading, isFetching } = useListConversationsQuery({ page, pageSize: PAGE_SIZE, ...(agent ? { agent } : {}) });
  const [create, { isLoading: creating }] = useCreateConversationMutation();

  const startNew = async () => {
    const result = await create({ agent: 'general' });
    if ('data' in result && result.data) navigate(localePath(`/conversations/${result.data.id}`));
  };

  return (
    <Stack gap="6">
      <Flex gap="4" align={{ base: 'stretch', sm: 'flex-end' }} direction={{ base: 'column', sm: 'row' }}>
        <Stack gap="1" flex="1">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
            {t('nav.conversations')}
          </Heading>
          <Text color="fg.muted" fontSize="lg">
            {t('conversations.subtitle')}
          </Text>
        </Stack>
        <Button colorPalette="brand" onClick={() => void startNew()} loading={creating}>
          <LuPlus aria-hidden />
          {t('conversations.new')}
        </Button>
      </Flex>

      <NativeSelect.Root width={{ base: 'full', sm: '64' }}>
        <NativeSelect.Field
          bg="bg.panel"
          aria-label={t('conversations.filterAgent')}
          value={agent}
          onChange={(e) => {
            setAgent(e.target.value as AgentKind | '');
            setPage(1);
          }}
        >
          <option value="">{t('conversations.allAgents')}</option>
          {AGENT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`chat.agent.${kind}`)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>

      <PagedList
        isLoading={isLoading}
        loading={
          <Stack gap="2">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h="16" rounded="xl" />
            ))}
          </Stack>
        }
        isEmpty={!data || data.total === 0}
        empty={
          <EmptyListState
            framed
            py="12"
            icon={<LuMessagesSquare />}
            iconColor="brand.fg"
            title={t('conversations.empty.title')}
            description={t('conversations.empty.body')}
          />
        }
        isFetching={isFetching}
        gap="6"
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
      >
        <Stack as="ul" listStyleType="none" gap="2" aria-label={t('conversations.listLabel')}>
          {(data?.items ?? []).map((c) => (
            <Card.Root as="li" key={c.id} size="sm" variant="outline" borderColor="border.muted" _hover={{ borderColor: 'brand.emphasized' }}>
              <Card.Body p="3">
                <Flex gap="3" align="center" wrap="wrap">
                  <Box flex="1" minW="0">
                    <LocaleLink to={`/conversations/${c.id}`}>
                      <Text fontWeight="medium" lineClamp={1} _hover={{ textDecoration: 'underline' }}>
                        {c.title || t('conversations.untitled')}
                      </Text>
                    </LocaleLink>
                    <Flex gap="2" align="center" textStyle="xs" color="fg.muted" mt="1" wrap="wrap">
                      <AgentBadge agent={c.agent} />
                      <span>{t('conversations.messageCount', { count: c.message_count })}</span>
                      <span aria-hidden>·</span>
                      <RelativeTime value={c.updated_at} />
                    </Flex>
                  </Box>
                  {c.workflow_id && (
                    <Button asChild size="xs" variant="outline">
                      <LocaleLink
                        to={`/workflows/${c.workflow_id}`}
                        aria-label={t('conversations.openWorkflowOf', { title: c.title || t('conversations.untitled') })}
                      >
                        <LuWorkflow aria-hidden />
                        {t('conversations.openWorkflow')}
                      </LocaleLink>
                    </Button>
                  )}
                </Flex>
              </Card.Body>
            </Card.Root>
          ))}
        </Stack>
      </PagedList>
    </Stack>
  );
}
