import { Box, CloseButton, Flex, Icon, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import type { IconType } from 'react-icons';
import { useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { LuCircleAlert, LuCircleCheck, LuInfo, LuTriangleAlert } from '../../components/firstLoadIcons';
import { DEFAULT_NOTICE_DURATION, removeMessage, selectToastMessages, type Notice, type NoticeType } from './noticesSlice';

// The global message area (spec §2): bottom left, stacked, 200–400 px wide items that go away
// after their duration or when closed. Modal messages are the NoticeModal's, not ours.

const looks: Record<NoticeType, { icon: IconType; palette: string }> = {
  error: { icon: LuCircleAlert, palette: 'red' },
  success: { icon: LuCircleCheck, palette: 'green' },
  warning: { icon: LuTriangleAlert, palette: 'orange' },
  info: { icon: LuInfo, palette: 'blue' },
};

function ToastItem({ notice }: { notice: Notice }) {
  const dispatch = useAppDispatch();
  const intl = useIntl();
  const { icon, palette } = looks[notice.type];
  const duration = notice.duration ?? DEFAULT_NOTICE_DURATION;

  // A plain timer per item (rather than a timestamp check) so fake timers can drive it in tests.
  useEffect(() => {
    const timer = setTimeout(() => dispatch(removeMessage(notice.id)), duration);
    return () => clearTimeout(timer);
  }, [dispatch, notice.id, duration]);

  return (
    <Flex
      role="status"
      aria-live={notice.type === 'error' ? 'assertive' : 'polite'}
      data-type={notice.type}
      colorPalette={palette}
      pointerEvents="auto"
      minW="200px"
      maxW="400px"
      gap="3"
      align="flex-start"
      bg="bg.panel"
      borderWidth="1px"
      borderColor="border"
      borderLeftWidth="4px"
      borderLeftColor="colorPalette.solid"
      rounded="l3"
      shadow="lg"
      ps="3"
      pe="1.5"
      py="2.5"
    >
      <Icon as={icon} color="colorPalette.solid" boxSize="5" mt="0.5" flexShrink={0} aria-hidden />
      <Text flex="1" textStyle="sm" lineHeight="1.5" py="0.5" wordBreak="break-word">
        {notice.text}
      </Text>
      <CloseButton size="2xs" variant="ghost" aria-label={intl.formatMessage({ id: 'notices.close' })} onClick={() => dispatch(removeMessage(notice.id))} />
    </Flex>
  );
}

export function Toaster() {
  const messages = useAppSelector(selectToastMessages);
  const intl = useIntl();
  return (
    <Box
      as="section"
      aria-label={intl.formatMessage({ id: 'notices.region' })}
      position="fixed"
      left={{ base: '3', md: '5' }}
      bottom={{ base: '3', md: '5' }}
      zIndex="toast"
      pointerEvents="none"
      maxW="calc(100vw - 1.5rem)"
    >
      <Stack gap="2" align="flex-start">
        {messages.map((notice) => (
          <ToastItem key={notice.id} notice={notice} />
        ))}
      </Stack>
    </Box>
  );
}
