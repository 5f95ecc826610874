import { Box, Button, Stack, type StackProps } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { useLocation } from 'react-router-dom';
import { areasFor } from '../app/areas';
import { AreaIcon } from '../app/areaIcons';
import { useAppSelector } from '../app/hooks';
import { selectUser } from '../features/auth/authSlice';
import { LocaleLink } from '../i18n/LocaleLink';
import { stripLocalePrefix } from '../i18n/locales';

interface NavLinksProps extends StackProps {
  onNavigate?: () => void;
  /** The everyday work areas (the header bar), or the help and staff ones (areas' `secondary`). */
  group?: 'main' | 'secondary';
}

/** One link per area in the registry that the user's role may see; the current one is marked for
 *  sighted and screen-reader users. */
export function NavLinks({ onNavigate, group = 'main', ...stackProps }: NavLinksProps) {
  const current = stripLocalePrefix(useLocation().pathname);
  const intl = useIntl();
  const user = useAppSelector(selectUser);
  const shown = areasFor(user).filter((area) => Boolean(area.secondary) === (group === 'secondary'));
  // In the header bar the words show from xl up; narrower, six areas' words overflowed the bar
  // (measured: 1184 px of page at 768 px wide), so there each link is its icon, named for
  // screen readers and with the word as a tooltip. The phone drawer (column) always has words.
  const bar = stackProps.direction !== 'column';
  return (
    <Stack as="ul" listStyleType="none" gap="1" {...stackProps}>
      {shown.map((area) => {
        // A workflow's editor (/workflows/:id) belongs to the Workflows area.
        const active = current === area.path || (area.path !== '/' && current.startsWith(`${area.path}/`));
        return (
          <li key={area.id}>
            <Button
              asChild
              variant={active ? 'subtle' : 'ghost'}
              colorPalette={active ? 'brand' : 'gray'}
              size="sm"
              w={stackProps.direction === 'column' ? 'full' : undefined}
              justifyContent="flex-start"
              fontWeight="medium"
            >
              <LocaleLink
                to={area.path}
                aria-current={active ? 'page' : undefined}
                onClick={onNavigate}
                {...(bar ? { 'aria-label': intl.formatMessage({ id: area.labelId }), title: intl.formatMessage({ id: area.labelId }) } : {})}
              >
                <AreaIcon id={area.id} aria-hidden />
                <Box as="span" display={bar ? { base: 'none', xl: 'inline' } : 'inline'}>
                  {intl.formatMessage({ id: area.labelId })}
                </Box>
              </LocaleLink>
            </Button>
          </li>
        );
      })}
    </Stack>
  );
}
