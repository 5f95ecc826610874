import { Center, Spinner } from '@chakra-ui/react';
import { useIntl } from 'react-intl';

/** Shown while the stored session is being checked, so nothing flickers in and out. */
export function PageSpinner() {
  const intl = useIntl();
  return (
    <Center minH="60vh" role="status" aria-label={intl.formatMessage({ id: 'common.loading' })}>
      <Spinner size="lg" color="brand.solid" borderWidth="3px" />
    </Center>
  );
}
