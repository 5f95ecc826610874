import { HStack, Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { LocaleLink } from '../i18n/LocaleLink';
import { LogoMark } from './LogoMark';

/** Mark + wordmark, linking to the home page in the current language. */
export function Logo() {
  const intl = useIntl();
  return (
    <LocaleLink to="/" aria-label={intl.formatMessage({ id: 'nav.homeLink' })} style={{ display: 'inline-flex' }}>
      <HStack gap="2">
        <LogoMark />
        <Text as="span" fontWeight="bold" fontSize="lg" letterSpacing="-0.02em">
          Stepwise
        </Text>
      </HStack>
    </LocaleLink>
  );
}
