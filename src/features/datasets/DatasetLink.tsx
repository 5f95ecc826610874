import { Link } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuDatabase } from 'react-icons/lu';
import { LocaleLink } from '../../i18n/LocaleLink';

/** A small link to a dataset's page (its records, schema and downloads), in the page's language. */
export function DatasetLink({ datasetId, children }: { datasetId: string; children: ReactNode }) {
  return (
    <Link asChild textStyle="xs" colorPalette="brand" color="colorPalette.fg">
      <LocaleLink to={`/datasets/${datasetId}`}>
        <LuDatabase aria-hidden />
        {children}
      </LocaleLink>
    </Link>
  );
}
