import { Box, Breadcrumb } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { LocaleLink } from '../../i18n/LocaleLink';

/** "My files › a › b": where the folder on screen is, each ancestor a link. */
export function FilesBreadcrumbs({ atRoot, path }: { atRoot: boolean; path: { id: string; name: string }[] }) {
  const intl = useIntl();
  const myFiles = intl.formatMessage({ id: 'files.myFiles' });
  return (
    <Breadcrumb.Root size="md" aria-label={intl.formatMessage({ id: 'files.breadcrumbs' })} minW="0">
      <Breadcrumb.List flexWrap="wrap" rowGap="1">
        <Breadcrumb.Item>
          {atRoot ? (
            <Breadcrumb.CurrentLink fontWeight="semibold">{myFiles}</Breadcrumb.CurrentLink>
          ) : (
            <Breadcrumb.Link asChild>
              <LocaleLink to="/files">{myFiles}</LocaleLink>
            </Breadcrumb.Link>
          )}
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
                <Breadcrumb.Link asChild truncate maxW="40">
                  <LocaleLink to={`/files/${crumb.id}`}>{crumb.name}</LocaleLink>
                </Breadcrumb.Link>
              )}
            </Breadcrumb.Item>
          </Box>
        ))}
      </Breadcrumb.List>
    </Breadcrumb.Root>
  );
}
