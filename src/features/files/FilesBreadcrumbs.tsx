import { Box, Breadcrumb, chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { LocaleLink } from '../../i18n/LocaleLink';

interface FilesBreadcrumbsProps {
  atRoot: boolean;
  path: { id: string; name: string }[];
  /** Go to a folder ('root' for the top) instead of following a link: the file picker browses in place. */
  onNavigate?: (folderId: string) => void;
}

/** "My files › a › b": where the folder on screen is, each ancestor a link (or a button). */
export function FilesBreadcrumbs({ atRoot, path, onNavigate }: FilesBreadcrumbsProps) {
  const intl = useIntl();
  const myFiles = intl.formatMessage({ id: 'files.myFiles' });
  const ancestor = (folderId: string, name: string, maxW?: string): ReactNode =>
    onNavigate ? (
      <Breadcrumb.Link asChild truncate maxW={maxW}>
        <chakra.button type="button" cursor="pointer" onClick={() => onNavigate(folderId)}>
          {name}
        </chakra.button>
      </Breadcrumb.Link>
    ) : (
      <Breadcrumb.Link asChild truncate maxW={maxW}>
        <LocaleLink to={folderId === 'root' ? '/files' : `/files/${folderId}`}>{name}</LocaleLink>
      </Breadcrumb.Link>
    );
  return (
    <Breadcrumb.Root size="md" aria-label={intl.formatMessage({ id: 'files.breadcrumbs' })} minW="0">
      <Breadcrumb.List flexWrap="wrap" rowGap="1">
        <Breadcrumb.Item>
          {atRoot ? <Breadcrumb.CurrentLink fontWeight="semibold">{myFiles}</Breadcrumb.CurrentLink> : ancestor('root', myFiles)}
        </Breadcrumb.Item>
        {path.map((crumb, i, all) => (
          <Box as="span" key={crumb.id} display="contents">
            <Breadcrumb.Separator />
            <Breadcrumb.Item minW="0">
              {i === all.length - 1 ? (
                <Breadcrumb.CurrentLink fontWeight="semibold" truncate maxW="60">
                  {crumb.name}
                </Breadcrumb.CurrentLink>
              ) : (
                ancestor(crumb.id, crumb.name, '40')
              )}
            </Breadcrumb.Item>
          </Box>
        ))}
      </Breadcrumb.List>
    </Breadcrumb.Root>
  );
}
