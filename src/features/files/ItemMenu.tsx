import { IconButton, Menu, Portal } from '@chakra-ui/react';
import { LuDownload, LuEllipsisVertical, LuEye, LuFolderInput, LuFolderOpen, LuPencil, LuTrash2, LuWorkflow } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import type { FolderEntry } from './filesApi';
import { importStepFor } from './importStep';

export type ItemAction = 'open' | 'preview' | 'download' | 'rename' | 'move' | 'workflow' | 'delete';

/** The "…" menu of one file or folder. */
export function ItemMenu({ item, onAction }: { item: FolderEntry; onAction: (action: ItemAction, item: FolderEntry) => void }) {
  const intl = useIntl();
  const isFile = item.type === 'file';
  const entries: Array<{ value: ItemAction; icon: typeof LuEye; label: string; danger?: boolean }> = isFile
    ? [
        { value: 'preview', icon: LuEye, label: 'files.action.preview' },
        { value: 'download', icon: LuDownload, label: 'files.action.download' },
        ...(importStepFor(item.name) ? [{ value: 'workflow' as const, icon: LuWorkflow, label: 'files.action.useInWorkflow' }] : []),
        { value: 'rename', icon: LuPencil, label: 'files.action.rename' },
        { value: 'move', icon: LuFolderInput, label: 'files.action.move' },
        { value: 'delete', icon: LuTrash2, label: 'files.action.delete', danger: true },
      ]
    : [
        { value: 'open', icon: LuFolderOpen, label: 'files.action.open' },
        { value: 'download', icon: LuDownload, label: 'files.action.downloadZip' },
        { value: 'rename', icon: LuPencil, label: 'files.action.rename' },
        { value: 'delete', icon: LuTrash2, label: 'files.action.delete', danger: true },
      ];
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} onSelect={({ value }) => onAction(value as ItemAction, item)}>
      <Menu.Trigger asChild>
        <IconButton
          variant="ghost"
          size="sm"
          aria-label={intl.formatMessage({ id: 'files.actionsFor' }, { name: item.name })}
          onClick={(e) => e.stopPropagation()}
        >
          <LuEllipsisVertical />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="52">
            {entries.map(({ value, icon: ItemIcon, label, danger }) => (
              <Menu.Item key={value} value={value} color={danger ? 'fg.error' : undefined} _hover={danger ? { bg: 'bg.error', color: 'fg.error' } : undefined}>
                <ItemIcon aria-hidden />
                <FormattedMessage id={label} />
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
