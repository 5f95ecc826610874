import { Box, Button, Text } from '@chakra-ui/react';
import { useLayoutEffect, useRef, useState } from 'react';
import { LuBraces } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { VariableFields } from '../variables/variablesApi';

/** "Insert variable or field": adds {{var.NAME}} / {{field.NAME}} at the cursor of a text control.
 *  A small list of buttons (not a floating menu), so it works the same with keyboard and touch. */
export function InsertReference({ references, onInsert }: { references: VariableFields | undefined; onInsert: (text: string) => void }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  // Where the list opens: below the button, or above it when the window has no room below (the
  // settings form sits low on a 1366×850 screen) and more above; either way scrolled into view.
  const [upward, setUpward] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) return;
    const below = window.innerHeight - button.current.getBoundingClientRect().bottom;
    const above = button.current.getBoundingClientRect().top;
    const needed = menu.current.offsetHeight + 8;
    setUpward(below < needed && above > below);
  }, [open]);
  useLayoutEffect(() => {
    if (open) menu.current?.scrollIntoView?.({ block: 'nearest' });
  }, [open, upward]);
  const variables = references?.variables ?? [];
  // A column both inputs have (a join's `id`) is one reference.
  const fields = (references?.fields ?? []).filter((f, i, all) => all.findIndex((other) => other.reference === f.reference) === i);
  const group = (title: string, items: { reference: string; hint?: string }[], emptyText: string) => (
    <Box>
      <Text textStyle="xs" fontWeight="semibold" color="fg.muted" px="2" pt="1.5" pb="1">
        {title}
      </Text>
      {items.length === 0 ? (
        <Text textStyle="xs" color="fg.subtle" px="2" pb="1.5">
          {emptyText}
        </Text>
      ) : (
        items.map((item) => (
          <Button
            key={item.reference}
            role="menuitem"
            variant="ghost"
            size="xs"
            w="full"
            justifyContent="space-between"
            fontFamily="mono"
            fontWeight="normal"
            onClick={() => {
              onInsert(item.reference);
              setOpen(false);
            }}
          >
            {item.reference}
            {item.hint && (
              <Text as="span" color="fg.subtle" fontFamily="body">
                {item.hint}
              </Text>
            )}
          </Button>
        ))
      )}
    </Box>
  );
  return (
    <Box
      position="relative"
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false);
      }}
    >
      <Button ref={button} size="2xs" variant="ghost" colorPalette="brand" aria-expanded={open} aria-haspopup="menu" onClick={() => setOpen((o) => !o)}>
        <LuBraces aria-hidden />
        {intl.formatMessage({ id: 'params.insert' })}
      </Button>
      {open && (
        <Box
          ref={menu}
          role="menu"
          position="absolute"
          right="0"
          {...(upward ? { bottom: 'full', mb: '1' } : { top: 'full', mt: '1' })}
          data-placement={upward ? 'top' : 'bottom'}
          zIndex="dropdown"
          bg="bg.panel"
          borderWidth="1px"
          rounded="lg"
          shadow="lg"
          minW="60"
          maxH="72"
          overflowY="auto"
          p="1"
        >
          {group(
            intl.formatMessage({ id: 'params.insert.variables' }),
            variables.map((v) => ({ reference: v.reference, hint: v.type })),
            intl.formatMessage({ id: 'params.insert.noVariables' }),
          )}
          {group(intl.formatMessage({ id: 'params.insert.fields' }), fields, references?.notes[0] ?? intl.formatMessage({ id: 'params.insert.noFields' }))}
        </Box>
      )}
    </Box>
  );
}
