import { CloseButton, Drawer, IconButton, Portal, Separator, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { LuMenu } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './Logo';
import { NavLinks } from './NavLinks';

/** Phone-width navigation: a hamburger that opens the area list in a drawer (work areas, then help
 *  and staff areas). */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  const intl = useIntl();
  return (
    <Drawer.Root open={open} onOpenChange={(details) => setOpen(details.open)} placement="start" size="xs">
      <Drawer.Trigger asChild>
        <IconButton variant="ghost" size="sm" aria-label={intl.formatMessage({ id: 'nav.openMenu' })} display={{ base: 'inline-flex', md: 'none' }}>
          <LuMenu />
        </IconButton>
      </Drawer.Trigger>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title asChild>
                <div>
                  <Logo />
                </div>
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="6" as="nav" aria-label={intl.formatMessage({ id: 'nav.main' })}>
                <NavLinks direction="column" onNavigate={() => setOpen(false)} />
                <Separator />
                <NavLinks direction="column" group="secondary" onNavigate={() => setOpen(false)} />
                <LanguageSwitcher alignSelf="flex-start" />
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={intl.formatMessage({ id: 'notices.close' })} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
