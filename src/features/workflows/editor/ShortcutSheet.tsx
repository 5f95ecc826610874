import { Badge, Button, Dialog, Portal, Table } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { isTypingTarget } from '../../history/UndoRedoControls';

/** What the editor's keys do, in the order people reach for them. */
export const SHORTCUTS: { keys: string[]; what: string }[] = [
  { keys: ['Ctrl/⌘', 'Z'], what: 'editor.keys.undo' },
  { keys: ['Shift', 'Ctrl/⌘', 'Z'], what: 'editor.keys.redo' },
  { keys: ['Ctrl/⌘', 'C'], what: 'editor.keys.copy' },
  { keys: ['Ctrl/⌘', 'V'], what: 'editor.keys.paste' },
  { keys: ['Delete / Backspace'], what: 'editor.keys.delete' },
  { keys: ['Shift / Ctrl/⌘', 'Click'], what: 'editor.keys.multiSelect' },
  { keys: ['?'], what: 'editor.keys.sheet' },
];

/** The keyboard shortcut sheet: "?" anywhere in the editor (outside a text field) opens it. */
export function ShortcutSheet() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <Dialog.Root open={open} onOpenChange={(d) => setOpen(d.open)} size="sm" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('editor.keys.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Table.Root size="sm" variant="line">
                <Table.Body>
                  {SHORTCUTS.map((s) => (
                    <Table.Row key={s.what}>
                      <Table.Cell whiteSpace="nowrap">
                        {s.keys.map((k, i) => (
                          <span key={k}>
                            {i > 0 && ' + '}
                            <Badge as="kbd" variant="outline" size="sm" fontFamily="mono">{k}</Badge>
                          </span>
                        ))}
                      </Table.Cell>
                      <Table.Cell>{t(s.what)}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button size="sm" variant="outline">
                  {t('editor.keys.close')}
                </Button>
              </Dialog.ActionTrigger>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
