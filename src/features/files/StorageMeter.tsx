import { Box, HStack, Icon, Progress, Text } from '@chakra-ui/react';
import { LuHardDrive } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocale } from '../../i18n/useLocale';
import type { FolderContentsOut } from './filesApi';
import { formatBytes } from './format';

/** "1.2 GB of 10 GB used", with a bar that turns orange, then red, as the quota fills. */
export function StorageMeter({ storage }: { storage: FolderContentsOut['storage'] }) {
  const intl = useIntl();
  const locale = useLocale();
  const percent = storage.quota_bytes > 0 ? Math.min(100, (storage.used_bytes / storage.quota_bytes) * 100) : 0;
  const palette = percent >= 95 ? 'red' : percent >= 80 ? 'orange' : 'brand';
  const used = formatBytes(storage.used_bytes, locale);
  const quota = formatBytes(storage.quota_bytes, locale);
  return (
    <Box minW={{ base: 'full', sm: '56' }} borderWidth="1px" rounded="xl" bg="bg.panel" px="4" py="3">
      <HStack gap="2" mb="2">
        <Icon as={LuHardDrive} color="fg.muted" aria-hidden />
        <Text textStyle="sm">
          <FormattedMessage id="files.storage.used" values={{ used: <strong>{used}</strong>, quota }} />
        </Text>
      </HStack>
      <Progress.Root size="xs" value={percent} colorPalette={palette} aria-label={intl.formatMessage({ id: 'files.storage.label' }, { used, quota })}>
        <Progress.Track rounded="full">
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    </Box>
  );
}
