import { Badge, Button, Dialog, Portal, Table } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { isTypingTarget } from '../../history/UndoRedoControls';

/** A key as printed on the keyboard; `mod` is ⌘ on a Mac and Ctrl elsewhere, `click` the mouse. */
type Key = 'mod' | 'click' | string;

/** What the editor's keys do, in the order people reach for them; each entry's combos are alternatives. */
export const SHORTCUTS: { combos: Key[][]; what: string }[] = [
  { combos: [['mod', 'Z']], what: 'editor.keys.undo' },
  { combos: [['Shift', 'mod', 'Z']], what: 'editor.keys.redo' },
  { combos: [['mod', 'C']], what: 'editor.keys.copy' },
  { combos: [['mod', 'V']], what: 'editor.keys.paste' },
  { combos: [['Delete'], ['Backspace']], what: 'editor.keys.delete' },
  {
    combos: [
      ['Shift', 'click'],
      ['mod', 'click'],
    ],
    what: 'editor.keys.multiSelect',
  },
  { combos: [['?']], what: 'editor.keys.sheet' },
];

const onMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

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
                        {s.combos.map((combo, c) => (
                          <span key={combo.join('+')}>
                            {c > 0 && ` ${t('editor.keys.or')} `}
                            {combo.map((key, i) => (
                              <span key={key}>
                                {i > 0 && ' + '}
                                <Badge as="kbd" variant="outline" size="sm" fontFamily="mono">
                                  {key === 'mod' ? (onMac ? '⌘' : 'Ctrl') : key === 'click' ? t('editor.keys.click') : key}
                                </Badge>
                              </span>
                            ))}
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
