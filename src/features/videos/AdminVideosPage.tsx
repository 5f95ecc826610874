import { Badge, Button, Flex, Heading, HStack, IconButton, Skeleton, Stack, Switch, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuPencil, LuPlus, LuTrash2 } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, EmptyListState } from '../../components/DataTable';
import { FormDialog } from '../../components/FormDialog';
import { SelectField } from '../../components/SelectField';
import { TextAreaField } from '../../components/TextAreaField';
import { TextField } from '../../components/TextField';
import { AdminHeader } from '../admin/AdminHeader';
import { useFieldErrors } from '../auth/useFieldErrors';
import { formatDuration } from './videoSource';
import { useCreateVideoMutation, useDeleteVideoMutation, useListAdminVideosQuery, useUpdateVideoMutation } from './videosApi';
import {
  DESCRIPTION_MAX,
  DURATION_MAX_SECONDS,
  POSITION_MAX,
  TITLE_MAX,
  URL_MAX,
  VIDEO_CATEGORIES,
  VIDEO_LOCALES,
  type AdminVideo,
  type VideoCategory,
  type VideoCreateIn,
  type VideoLocale,
} from './videosTypes';

type Field = 'title' | 'description' | 'url' | 'thumbnailUrl' | 'duration' | 'position';

/** The server takes http(s) URLs and paths on this site; the same check here says so at once. */
const isVideoUrl = (value: string) => /^https?:\/\/\S+$/i.test(value) || (value.startsWith('/') && !value.startsWith('//'));

/** Add or change one video. `video` null: a new one. */
function VideoDialog({ video, open, onClose }: { video: AdminVideo | null; open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [createVideo, { isLoading: creating }] = useCreateVideoMutation();
  const [updateVideo, { isLoading: updating }] = useUpdateVideoMutation();
  const [title, setTitle] = useState(video?.title ?? '');
  const [description, setDescription] = useState(video?.description ?? '');
  const [url, setUrl] = useState(video?.url ?? '');
  const [thumbnailUrl, setThumbnailUrl] = useState(video?.thumbnail_url ?? '');
  const [duration, setDuration] = useState(video ? String(video.duration_seconds) : '');
  const [category, setCategory] = useState<VideoCategory>(video?.category ?? 'getting_started');
  const [locale, setLocale] = useState<VideoLocale>(video?.locale ?? 'en');
  const [position, setPosition] = useState(video ? String(video.position) : '0');
  const [published, setPublished] = useState(video ? video.status === 'published' : true);
  const { check, clear, errorFor, showServerErrors } = useFieldErrors<Field>();

  const submit = async () => {
    const durationValue = Number(duration);
    const positionValue = Number(position);
    const valid = check({
      title: title.trim() ? null : 'admin.videos.title.required',
      url: isVideoUrl(url.trim()) ? null : 'admin.videos.url.invalid',
      thumbnailUrl: !thumbnailUrl.trim() || isVideoUrl(thumbnailUrl.trim()) ? null : 'admin.videos.url.invalid',
      duration:
        duration.trim() && Number.isInteger(durationValue) && durationValue >= 0 && durationValue <= DURATION_MAX_SECONDS
          ? null
          : 'admin.videos.duration.invalid',
      position:
        position.trim() && Number.isInteger(positionValue) && positionValue >= 0 && positionValue <= POSITION_MAX ? null : 'admin.videos.position.invalid',
    });
    if (!valid) return;
    const body: VideoCreateIn = {
      title: title.trim(),
      description: description.trim(),
      url: url.trim(),
      thumbnail_url: thumbnailUrl.trim() || null,
      duration_seconds: durationValue,
      category,
      locale,
      position: positionValue,
      status: published ? 'published' : 'hidden',
    };
    const result = video ? await updateVideo({ id: video.id, changes: body }) : await createVideo(body);
    if ('data' in result) onClose();
    else
      showServerErrors(result.error, {
        title: 'title',
        description: 'description',
        url: 'url',
        thumbnail_url: 'thumbnailUrl',
        duration_seconds: 'duration',
        position: 'position',
      });
  };

  const field = (name: Field, set: (value: string) => void) => ({
    error: errorFor(name),
    onChange: (e: { target: { value: string } }) => {
      set(e.target.value);
      clear(name);
    },
  });

  return (
    <FormDialog
      open={open}
      title={t(video ? 'admin.videos.edit.title' : 'admin.videos.add.title')}
      submitLabel={t(video ? 'admin.videos.save' : 'admin.videos.add')}
      onSubmit={() => void submit()}
      onCancel={onClose}
      loading={creating || updating}
      maxW="2xl"
    >
      <Stack gap="4">
        <TextField label={t('admin.videos.field.title')} name="title" size="md" maxLength={TITLE_MAX} value={title} {...field('title', setTitle)} />
        <TextAreaField
          label={t('admin.videos.field.description')}
          name="description"
          rows={3}
          maxLength={DESCRIPTION_MAX}
          value={description}
          {...field('description', setDescription)}
        />
        <TextField
          label={t('admin.videos.field.url')}
          name="url"
          size="md"
          maxLength={URL_MAX}
          helperText={t('admin.videos.field.url.hint')}
          value={url}
          {...field('url', setUrl)}
        />
        <TextField
          label={t('admin.videos.field.thumbnailUrl')}
          name="thumbnail_url"
          size="md"
          maxLength={URL_MAX}
          value={thumbnailUrl}
          {...field('thumbnailUrl', setThumbnailUrl)}
        />
        <Flex gap="4" direction={{ base: 'column', sm: 'row' }}>
          <TextField
            label={t('admin.videos.field.duration')}
            name="duration_seconds"
            type="number"
            min={0}
            max={DURATION_MAX_SECONDS}
            size="md"
            value={duration}
            {...field('duration', setDuration)}
          />
          <TextField
            label={t('admin.videos.field.position')}
            name="position"
            type="number"
            min={0}
            max={POSITION_MAX}
            size="md"
            value={position}
            {...field('position', setPosition)}
          />
        </Flex>
        <Flex gap="4" direction={{ base: 'column', sm: 'row' }}>
          <SelectField
            label={t('admin.videos.field.category')}
            name="category"
            size="md"
            value={category}
            onChange={setCategory}
            options={VIDEO_CATEGORIES.map((value) => ({ value, label: t(`videos.category.${value}`) }))}
          />
          <SelectField
            label={t('admin.videos.field.locale')}
            name="locale"
            size="md"
            value={locale}
            onChange={setLocale}
            options={VIDEO_LOCALES.map((value) => ({ value, label: t(`settings.language.${value}`) }))}
          />
        </Flex>
        <Switch.Root colorPalette="brand" checked={published} onCheckedChange={(d) => setPublished(d.checked)}>
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>{t('admin.videos.field.published')}</Switch.Label>
        </Switch.Root>
      </Stack>
    </FormDialog>
  );
}

/** `/admin/videos` (admins): every tutorial video, hidden ones too; add, change, delete. */
export function AdminVideosPage() {
  usePageTitle('admin.tab.videos');
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data, isLoading } = useListAdminVideosQuery({});
  const [deleteVideo, { isLoading: deleting }] = useDeleteVideoMutation();
  // `editing` undefined: no dialog; null: a new video.
  const [editing, setEditing] = useState<AdminVideo | null | undefined>(undefined);
  const [removing, setRemoving] = useState<AdminVideo | null>(null);

  return (
    <Stack gap="8">
      <AdminHeader current="videos" />
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h2" size="lg">
          {t('admin.videos.title')}
        </Heading>
        <Button colorPalette="brand" onClick={() => setEditing(null)}>
          <LuPlus aria-hidden />
          {t('admin.videos.add')}
        </Button>
      </Flex>
      <DataTable
        label={t('admin.videos.title')}
        loading={<Skeleton h="40" rounded="xl" />}
        isLoading={isLoading}
        rows={data?.items ?? (isLoading ? undefined : [])}
        rowKey={(video) => video.id}
        rowLabel={(video) => video.title}
        empty={<EmptyListState title={t('videos.empty')} />}
        columns={[
          {
            id: 'title',
            header: t('admin.videos.field.title'),
            cellProps: { maxW: 'sm' },
            cell: (video) => (
              <>
                <Text fontWeight="semibold" truncate>
                  {video.title}
                </Text>
                <Text textStyle="xs" color="fg.muted" truncate>
                  {video.url}
                </Text>
              </>
            ),
          },
          { id: 'category', header: t('admin.videos.field.category'), cell: (video) => <FormattedMessage id={`videos.category.${video.category}`} /> },
          { id: 'locale', header: t('admin.videos.field.locale'), cell: (video) => <FormattedMessage id={`settings.language.${video.locale}`} /> },
          { id: 'position', header: t('admin.videos.field.position'), align: 'end', cell: (video) => video.position },
          {
            id: 'duration',
            header: t('admin.videos.column.duration'),
            align: 'end',
            cellProps: { fontVariantNumeric: 'tabular-nums' },
            cell: (video) => formatDuration(video.duration_seconds),
          },
          {
            id: 'status',
            header: t('admin.videos.column.status'),
            cell: (video) => (
              <Badge colorPalette={video.status === 'published' ? 'green' : 'gray'} variant="subtle" rounded="full" px="2">
                <FormattedMessage id={`admin.videos.status.${video.status}`} />
              </Badge>
            ),
          },
          {
            id: 'actions',
            header: t('admin.codes.column.actions'),
            align: 'end',
            cell: (video) => (
              <HStack gap="1" justify="flex-end">
                <IconButton
                  size="xs"
                  variant="ghost"
                  aria-label={intl.formatMessage({ id: 'admin.videos.editNamed' }, { title: video.title })}
                  onClick={() => setEditing(video)}
                >
                  <LuPencil />
                </IconButton>
                <IconButton
                  size="xs"
                  variant="ghost"
                  colorPalette="red"
                  aria-label={intl.formatMessage({ id: 'admin.videos.deleteNamed' }, { title: video.title })}
                  onClick={() => setRemoving(video)}
                >
                  <LuTrash2 />
                </IconButton>
              </HStack>
            ),
          },
        ]}
      />
      {editing !== undefined && <VideoDialog key={editing?.id ?? 'new'} video={editing} open onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={removing !== null}
        title={t('admin.videos.delete.title')}
        body={intl.formatMessage({ id: 'admin.videos.delete.body' }, { title: removing?.title ?? '' })}
        confirmLabel={t('admin.videos.delete')}
        destructive
        loading={deleting}
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          if (removing) await deleteVideo(removing.id);
          setRemoving(null);
        }}
      />
    </Stack>
  );
}
