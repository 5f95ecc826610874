import { Box, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { FormDialog } from '../../components/FormDialog';
import { FolderTree } from './FolderTree';

/** Pick the folder to move files into: the same lazy tree as the sidebar, clicks choose. */
export function MoveDialog({
  open,
  count,
  currentId,
  openIds,
  loading,
  onMove,
  onCancel,
}: {
  open: boolean;
  count: number;
  currentId: string;
  openIds: string[];
  loading?: boolean;
  onMove: (folderId: string | null) => void;
  onCancel: () => void;
}) {
  const intl = useIntl();
  const [target, setTarget] = useState<{ id: string; name: string } | null>(null);
  useEffect(() => {
    if (open) setTarget(null);
  }, [open]);
  const same = !target || target.id === currentId;
  return (
    <FormDialog
      open={open}
      title={<FormattedMessage id="files.move.title" values={{ count }} />}
      submitLabel={target ? <FormattedMessage id="files.move.toNamed" values={{ name: target.name }} /> : <FormattedMessage id="files.move.submit" />}
      loading={loading}
      submitDisabled={same}
      onSubmit={() => target && onMove(target.id === 'root' ? null : target.id)}
      onCancel={onCancel}
    >
      <Text color="fg.muted" textStyle="sm" mb="3">
        <FormattedMessage id="files.move.hint" />
      </Text>
      <Box borderWidth="1px" rounded="lg" p="2" maxH="72" overflowY="auto">
        <FolderTree
          label={intl.formatMessage({ id: 'files.move.tree' })}
          currentId={target?.id ?? ''}
          openIds={openIds}
          onPick={(id, name) => setTarget({ id, name })}
        />
      </Box>
    </FormDialog>
  );
}
