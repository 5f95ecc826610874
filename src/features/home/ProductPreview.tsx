import { Badge, Box, Flex, HStack, Icon, Progress, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuDownload, LuFilter, LuGlobe, LuSparkles, LuTable } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';

// A drawing of a workflow in progress for the landing page hero, built from real components so it
// stays sharp, themable and translated. Decorative: screen readers get one sentence instead.

interface PreviewStep {
  labelId: string;
  icon: IconType;
  progress: number;
  palette: string;
}

const steps: PreviewStep[] = [
  { labelId: 'landing.preview.import', icon: LuTable, progress: 100, palette: 'green' },
  { labelId: 'landing.preview.filter', icon: LuFilter, progress: 100, palette: 'green' },
  { labelId: 'landing.preview.enrich', icon: LuSparkles, progress: 64, palette: 'brand' },
  { labelId: 'landing.preview.http', icon: LuGlobe, progress: 0, palette: 'gray' },
  { labelId: 'landing.preview.export', icon: LuDownload, progress: 0, palette: 'gray' },
];

export function ProductPreview() {
  const intl = useIntl();
  return (
    <Box
      role="img"
      aria-label={intl.formatMessage({ id: 'landing.preview.alt' })}
      bg="bg.panel"
      rounded="2xl"
      borderWidth="1px"
      borderColor="border.muted"
      shadow="2xl"
      p={{ base: '4', md: '6' }}
      w="full"
      maxW="lg"
    >
      <Flex justify="space-between" align="center" mb="4" aria-hidden>
        <Stack gap="0">
          <Text fontWeight="semibold">
            <FormattedMessage id="landing.preview.title" />
          </Text>
          <Text textStyle="xs" color="fg.muted">
            <FormattedMessage id="landing.preview.records" />
          </Text>
        </Stack>
        <Badge colorPalette="brand" variant="subtle" rounded="full" px="2.5">
          <FormattedMessage id="landing.preview.running" />
        </Badge>
      </Flex>
      <Stack gap="2.5" aria-hidden>
        {steps.map((step, index) => (
          <HStack
            key={step.labelId}
            gap="3"
            p="3"
            rounded="xl"
            borderWidth="1px"
            borderColor="border.muted"
            bg={step.progress > 0 && step.progress < 100 ? 'brand.subtle' : 'bg'}
          >
            <Flex
              boxSize="8"
              rounded="lg"
              align="center"
              justify="center"
              bg="colorPalette.muted"
              colorPalette={step.palette}
              color="colorPalette.fg"
              flexShrink={0}
            >
              <Icon as={step.icon} boxSize="4" />
            </Flex>
            <Stack gap="1.5" flex="1" minW="0">
              <Flex justify="space-between" textStyle="sm">
                <Text fontWeight="medium" truncate>
                  {index + 1}. <FormattedMessage id={step.labelId} />
                </Text>
                <Text color="fg.muted">{step.progress}%</Text>
              </Flex>
              <Progress.Root value={step.progress} size="xs" colorPalette={step.palette} rounded="full">
                <Progress.Track rounded="full">
                  <Progress.Range />
                </Progress.Track>
              </Progress.Root>
            </Stack>
          </HStack>
        ))}
      </Stack>
    </Box>
  );
}
