import { Box, Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
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
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && onCancel()} placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content maxW="md">
            <Dialog.Header>
              <Dialog.Title>
                <FormattedMessage id="files.move.title" values={{ count }} />
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted" textStyle="sm" mb="3">
                <FormattedMessage id="files.move.hint" />
              </Text>
              <Box borderWidth="1px" rounded="lg" p="2" maxH="72" overflowY="auto">
                <FolderTree label={intl.formatMessage({ id: 'files.move.tree' })} currentId={target?.id ?? ''} openIds={openIds} onPick={(id, name) => setTarget({ id, name })} />
              </Box>
            </Dialog.Body>
            <Dialog.Footer gap="2">
              <Button variant="outline" onClick={onCancel}>
                {intl.formatMessage({ id: 'common.cancel' })}
              </Button>
              <Button colorPalette="brand" disabled={same} loading={loading} onClick={() => target && onMove(target.id === 'root' ? null : target.id)}>
                {target ? <FormattedMessage id="files.move.toNamed" values={{ name: target.name }} /> : <FormattedMessage id="files.move.submit" />}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
