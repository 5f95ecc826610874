import { Box, Button, Card, CloseButton, Flex, HStack, Icon, IconButton, Progress, Stack, Text } from '@chakra-ui/react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { LuChevronDown, LuCircleAlert, LuCircleCheck, LuUpload, LuX } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocale } from '../../i18n/useLocale';
import { formatBytes } from './format';
import { uploads as defaultManager, useUploads, type UploadItem, type UploadManager } from './uploads';

/** One upload: its name, progress or outcome, and cancel while it runs (the panel's rows; the file picker shows its own uploads with it). */
export function UploadRow({ item, onCancel }: { item: UploadItem; onCancel: () => void }) {
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

/** How long a panel of finished uploads (none failed) stays before it clears itself. */
export const UPLOAD_PANEL_DISMISS_MS = 4000;

/**
 * The uploads of this session, bottom right, with a bar and a cancel button per file. Once every
 * upload has finished without a failure it clears itself after a few seconds (not while the pointer
 * is on it); failures keep it until closed. An in-flow spacer as tall as the panel sits at the end of
 * the page, so the last rows (and their action buttons) can always scroll out from under it.
 */
export function UploadPanel({ manager = defaultManager }: { manager?: UploadManager }) {
  const intl = useIntl();
  const items = useUploads(manager);
  const [collapsed, setCollapsed] = useState(false);
  const [hovered, setHovered] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const [cover, setCover] = useState(0);
  const active = items.filter((i) => i.status === 'queued' || i.status === 'uploading').length;
  const done = items.filter((i) => i.status === 'done').length;
  const failed = items.some((i) => i.status === 'error');
  const settled = items.length > 0 && active === 0 && !failed;

  useEffect(() => {
    if (!settled || hovered) return;
    const timer = setTimeout(() => manager.clearFinished(), UPLOAD_PANEL_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [settled, hovered, items, manager]);

  // How much of the viewport's bottom the panel covers (its height plus its offset from the edge).
  useLayoutEffect(() => {
    const measure = () => {
      const rect = panel.current?.getBoundingClientRect();
      const next = rect && rect.height > 0 ? Math.max(0, Math.ceil(window.innerHeight - rect.top)) : 0;
      setCover((prev) => (prev === next ? prev : next));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  });

  if (items.length === 0) return null;
  return (
    <>
      <Box aria-hidden data-testid="upload-panel-spacer" flexShrink={0} h={`${cover}px`} />
      <Card.Root
        ref={panel}
        onPointerEnter={() => setHovered(true)}
        onPointerLeave={() => setHovered(false)}
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
            {active > 0 ? (
              <FormattedMessage id="files.upload.uploading" values={{ count: active }} />
            ) : (
              <FormattedMessage id="files.upload.finished" values={{ count: done }} />
            )}
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
          <HStack
            as="ul"
            px="4"
            py="1"
            maxH="64"
            overflowY="auto"
            listStyleType="none"
            display="block"
            css={{ '& > li + li': { borderTopWidth: '1px', borderColor: 'border.muted' } }}
          >
            {items.map((item) => (
              <UploadRow key={item.id} item={item} onCancel={() => manager.cancel(item.id)} />
            ))}
          </HStack>
        )}
      </Card.Root>
    </>
  );
}
