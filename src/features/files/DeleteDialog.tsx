import { useIntl } from 'react-intl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useGetFolderQuery, type FolderEntry } from './filesApi';

/** Confirms a delete; one folder that is not empty says how much goes with it. */
export function DeleteDialog({
  items,
  loading,
  onConfirm,
  onCancel,
}: {
  items: FolderEntry[];
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const intl = useIntl();
  const single = items.length === 1 ? items[0] : null;
  const folder = single?.type === 'folder' ? single : null;
  const { data: contents } = useGetFolderQuery({ id: folder?.id ?? 'root', page_size: 1 }, { skip: !folder });
  const folderCount = items.filter((i) => i.type === 'folder').length;

  let body: string;
  if (folder) {
    const files = contents?.file_count ?? 0;
    const folders = contents?.folder_count ?? 0;
    body =
      contents && files + folders > 0
        ? intl.formatMessage({ id: 'files.delete.folderNotEmpty' }, { name: folder.name, files, folders })
        : intl.formatMessage({ id: 'files.delete.folderEmpty' }, { name: folder.name });
  } else if (single) {
    body = intl.formatMessage({ id: 'files.delete.file' }, { name: single.name });
  } else {
    body = intl.formatMessage({ id: folderCount > 0 ? 'files.delete.manyWithFolders' : 'files.delete.many' }, { count: items.length, folders: folderCount });
  }
  return (
    <ConfirmDialog
      open={items.length > 0}
      title={intl.formatMessage({ id: 'files.delete.title' }, { count: items.length })}
      body={body}
      confirmLabel={intl.formatMessage({ id: 'files.action.delete' })}
      destructive
      loading={loading}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
