import { Button, Stack, type StackProps } from '@chakra-ui/react';
import { FormattedMessage } from 'react-intl';
import { useLocation } from 'react-router-dom';
import { areas } from '../app/areas';
import { LocaleLink } from '../i18n/LocaleLink';
import { stripLocalePrefix } from '../i18n/locales';

interface NavLinksProps extends StackProps {
  onNavigate?: () => void;
}

/** One link per area in the registry; the current one is marked for sighted and screen-reader users. */
export function NavLinks({ onNavigate, ...stackProps }: NavLinksProps) {
  const current = stripLocalePrefix(useLocation().pathname);
  return (
    <Stack as="ul" listStyleType="none" gap="1" {...stackProps}>
      {areas.map((area) => {
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
              <LocaleLink to={area.path} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
                <area.icon aria-hidden />
                <FormattedMessage id={area.labelId} />
              </LocaleLink>
            </Button>
          </li>
        );
      })}
    </Stack>
  );
}
