import {
  AspectRatio,
  Badge,
  Box,
  Button,
  Card,
  Center,
  CloseButton,
  Dialog,
  EmptyState,
  Flex,
  Heading,
  HStack,
  Image,
  Link,
  Portal,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useState } from 'react';
import { LuClock, LuExternalLink, LuPlay, LuTvMinimalPlay } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { useLocale } from '../../i18n/useLocale';
import { formatDuration, videoSource } from './videoSource';
import { useListVideosQuery } from './videosApi';
import { VIDEO_CATEGORIES, type Video, type VideoCategory } from './videosTypes';

/** The video itself: our own player for files, the provider's for YouTube and Vimeo. */
function VideoPlayer({ video }: { video: Video }) {
  const intl = useIntl();
  const source = videoSource(video.url);
  if (source.kind === 'file') {
    return (
      <AspectRatio ratio={16 / 9} bg="black" rounded="lg" overflow="hidden">
        {/* Tutorials are silent screen recordings with on-screen captions, so no caption track. */}
        <video src={source.src} controls autoPlay playsInline poster={video.thumbnail_url ?? undefined} aria-label={video.title} />
      </AspectRatio>
    );
  }
  if (source.kind === 'embed') {
    return (
      <AspectRatio ratio={16 / 9} bg="black" rounded="lg" overflow="hidden">
        <iframe
          src={source.src}
          title={video.title}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          style={{ border: 0 }}
        />
      </AspectRatio>
    );
  }
  if (source.kind === 'link') {
    return (
      <Button asChild variant="outline" alignSelf="flex-start">
        <Link href={source.href} target="_blank" rel="noopener noreferrer">
          <LuExternalLink aria-hidden />
          {intl.formatMessage({ id: 'videos.openExternal' })}
        </Link>
      </Button>
    );
  }
  return <Text color="fg.muted">{intl.formatMessage({ id: 'videos.unplayable' })}</Text>;
}

function VideoCard({ video, onPlay }: { video: Video; onPlay: (video: Video) => void }) {
  const intl = useIntl();
  return (
    <Card.Root
      as="li"
      rounded="2xl"
      overflow="hidden"
      shadow="xs"
      borderColor="border.muted"
      _hover={{ shadow: 'md' }}
      transition="box-shadow 0.2s"
      aria-label={video.title}
    >
      <Box
        as="button"
        position="relative"
        display="block"
        w="full"
        cursor="pointer"
        onClick={() => onPlay(video)}
        aria-label={intl.formatMessage({ id: 'videos.playNamed' }, { title: video.title })}
        className="group"
      >
        <AspectRatio ratio={16 / 9} bg="bg.muted">
          {/* Without a thumbnail the play button alone marks the video. */}
          {video.thumbnail_url ? (
            <Image src={video.thumbnail_url} alt="" objectFit="cover" />
          ) : (
            <Box bgGradient="to-br" gradientFrom="brand.subtle" gradientTo="bg.muted" />
          )}
        </AspectRatio>
        <Center position="absolute" inset="0">
          <Center boxSize="14" rounded="full" bg="blackAlpha.600" color="white" _groupHover={{ bg: 'brand.solid' }} transition="background 0.2s">
            <LuPlay aria-hidden size="24" />
          </Center>
        </Center>
        <Badge position="absolute" bottom="2" right="2" bg="blackAlpha.700" color="white" fontVariantNumeric="tabular-nums">
          {formatDuration(video.duration_seconds)}
        </Badge>
      </Box>
      <Card.Body gap="2">
        <Badge alignSelf="flex-start" colorPalette="brand" variant="subtle">
          <FormattedMessage id={`videos.category.${video.category}`} />
        </Badge>
        <Card.Title as="h2" fontSize="lg" lineClamp={2}>
          {video.title}
        </Card.Title>
        <Text color="fg.muted" textStyle="sm" lineClamp={3}>
          {video.description}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

/** `/videos`: tutorial videos in the page's language, for everyone; one plays in a dialog. */
export function VideosPage() {
  usePageTitle('nav.videos');
  const intl = useIntl();
  const locale = useLocale();
  const [category, setCategory] = useState<VideoCategory | null>(null);
  const [playing, setPlaying] = useState<Video | null>(null);
  const { data, isLoading, isFetching } = useListVideosQuery({ locale, ...(category ? { category } : {}) });

  return (
    <Stack gap="8">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          <FormattedMessage id="nav.videos" />
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          <FormattedMessage id="videos.subtitle" />
        </Text>
      </Stack>

      <HStack gap="2" wrap="wrap" role="group" aria-label={intl.formatMessage({ id: 'videos.filter' })}>
        {[null, ...VIDEO_CATEGORIES].map((value) => (
          <Button
            key={value ?? 'all'}
            size="sm"
            rounded="full"
            variant={category === value ? 'solid' : 'outline'}
            colorPalette={category === value ? 'brand' : 'gray'}
            aria-pressed={category === value}
            onClick={() => setCategory(value)}
          >
            <FormattedMessage id={value ? `videos.category.${value}` : 'videos.category.all'} />
          </Button>
        ))}
      </HStack>

      {isLoading ? (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h="72" rounded="2xl" />
          ))}
        </SimpleGrid>
      ) : !data || data.total === 0 ? (
        <Center py="10">
          <EmptyState.Root maxW="md">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <LuTvMinimalPlay />
              </EmptyState.Indicator>
              <EmptyState.Title>
                <FormattedMessage id="videos.empty" />
              </EmptyState.Title>
            </EmptyState.Content>
          </EmptyState.Root>
        </Center>
      ) : (
        <Flex direction="column" opacity={isFetching ? 0.7 : 1} transition="opacity 0.2s">
          <SimpleGrid as="ul" listStyleType="none" columns={{ base: 1, md: 2, xl: 3 }} gap="4" aria-label={intl.formatMessage({ id: 'videos.listLabel' })}>
            {data.items.map((video) => (
              <VideoCard key={video.id} video={video} onPlay={setPlaying} />
            ))}
          </SimpleGrid>
        </Flex>
      )}

      <Dialog.Root open={playing !== null} onOpenChange={(d) => !d.open && setPlaying(null)} size="xl" placement="center" lazyMount unmountOnExit>
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner px="4">
            <Dialog.Content>
              {playing && (
                <>
                  <Dialog.Header>
                    <Dialog.Title>{playing.title}</Dialog.Title>
                  </Dialog.Header>
                  <Dialog.Body>
                    <Stack gap="3">
                      <VideoPlayer video={playing} />
                      <HStack gap="2" color="fg.muted" textStyle="sm">
                        <LuClock aria-hidden />
                        <Text>{formatDuration(playing.duration_seconds)}</Text>
                      </HStack>
                      <Text>{playing.description}</Text>
                    </Stack>
                  </Dialog.Body>
                  <Dialog.CloseTrigger asChild>
                    <CloseButton size="sm" aria-label={intl.formatMessage({ id: 'notices.close' })} />
                  </Dialog.CloseTrigger>
                </>
              )}
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Stack>
  );
}
