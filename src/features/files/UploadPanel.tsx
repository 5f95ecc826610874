import { Box, Button, Card, CloseButton, Flex, HStack, Icon, IconButton, Progress, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuChevronDown, LuCircleAlert, LuCircleCheck, LuUpload, LuX } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocale } from '../../i18n/useLocale';
import { formatBytes } from './format';
import { uploads as defaultManager, useUploads, type UploadItem, type UploadManager } from './uploads';

function UploadRow({ item, onCancel }: { item: UploadItem; onCancel: () => void }) {
  const intl = useIntl();
  const locale = useLocale();
  const percent = item.size > 0 ? Math.round((item.loaded / item.size) * 100) : item.status === 'done' ? 100 : 0;
  const active = item.status === 'queued' || item.status === 'uploading';
  const label = item.dir ? `${item.dir}/${item.name}` : item.name;
  return (
    <Box as="li" py="2" data-testid="upload-row" data-status={item.status}>
      <Flex align="center" gap="2">
        <Stack gap="0" flex="1" minW="0">
          <Text textStyle="sm" fontWeight="medium" truncate title={label}>
            {label}
          </Text>
          <Text textStyle="xs" color={item.status === 'error' ? 'fg.error' : 'fg.muted'} truncate title={item.error}>
            {item.status === 'uploading' && `${formatBytes(item.loaded, locale)} / ${formatBytes(item.size, locale)} · ${percent}%`}
            {item.status === 'queued' && <FormattedMessage id="files.upload.queued" />}
            {item.status === 'done' && formatBytes(item.size, locale)}
            {item.status === 'cancelled' && <FormattedMessage id="files.upload.cancelled" />}
            {item.status === 'error' && (item.error ?? intl.formatMessage({ id: 'files.upload.failed' }))}
          </Text>
        </Stack>
        {active ? (
          <IconButton size="xs" variant="ghost" aria-label={intl.formatMessage({ id: 'files.upload.cancel' }, { name: item.name })} onClick={onCancel}>
            <LuX />
          </IconButton>
        ) : item.status === 'done' ? (
          <Icon as={LuCircleCheck} color="fg.success" boxSize="4" aria-label={intl.formatMessage({ id: 'files.upload.done' })} />
        ) : item.status === 'error' ? (
          <Icon as={LuCircleAlert} color="fg.error" boxSize="4" aria-label={intl.formatMessage({ id: 'files.upload.failed' })} />
        ) : null}
      </Flex>
      {active && (
        <Progress.Root
          size="xs"
          mt="1.5"
          value={item.status === 'queued' ? 0 : percent}
          colorPalette="brand"
          aria-label={intl.formatMessage({ id: 'files.upload.progress' }, { name: item.name })}
        >
          <Progress.Track rounded="full">
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
    </Box>
  );
}

/** The uploads of this session, bottom right, with a bar and a cancel button per file. */
export function UploadPanel({ manager = defaultManager }: { manager?: UploadManager }) {
  const intl = useIntl();
  const items = useUploads(manager);
  const [collapsed, setCollapsed] = useState(false);
  if (items.length === 0) return null;
  const active = items.filter((i) => i.status === 'queued' || i.status === 'uploading').length;
  const done = items.filter((i) => i.status === 'done').length;
  return (
    <Card.Root
      role="region"
      aria-label={intl.formatMessage({ id: 'files.upload.panel' })}
      position="fixed"
      bottom={{ base: '2', md: '6' }}
      right={{ base: '2', md: '6' }}
      left={{ base: '2', md: 'auto' }}
      w={{ md: '96' }}
      shadow="lg"
      rounded="xl"
      zIndex="docked"
      overflow="hidden"
    >
      <Flex align="center" gap="2" px="4" py="3" bg="bg.subtle" borderBottomWidth={collapsed ? 0 : '1px'}>
        <Icon as={LuUpload} color="brand.fg" aria-hidden />
        <Text textStyle="sm" fontWeight="semibold" flex="1" aria-live="polite">
          {active > 0 ? <FormattedMessage id="files.upload.uploading" values={{ count: active }} /> : <FormattedMessage id="files.upload.finished" values={{ count: done }} />}
        </Text>
        {active > 0 ? (
          <Button size="xs" variant="ghost" onClick={() => manager.cancelAll()}>
            <FormattedMessage id="files.upload.cancelAll" />
          </Button>
        ) : null}
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={intl.formatMessage({ id: collapsed ? 'files.upload.expand' : 'files.upload.collapse' })}
          aria-expanded={!collapsed}
          onClick={() => setCollapsed((c) => !c)}
        >
          <Box as={LuChevronDown} transform={collapsed ? 'rotate(180deg)' : undefined} />
        </IconButton>
        {active === 0 && <CloseButton size="xs" aria-label={intl.formatMessage({ id: 'files.upload.clear' })} onClick={() => manager.clearFinished()} />}
      </Flex>
      {!collapsed && (
        <HStack as="ul" px="4" py="1" maxH="64" overflowY="auto" listStyleType="none" display="block" css={{ '& > li + li': { borderTopWidth: '1px', borderColor: 'border.muted' } }}>
          {items.map((item) => (
            <UploadRow key={item.id} item={item} onCancel={() => manager.cancel(item.id)} />
          ))}
        </HStack>
      )}
    </Card.Root>
  );
}
