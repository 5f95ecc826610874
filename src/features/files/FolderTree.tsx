import { Box, chakra, Flex, Icon, IconButton, Spinner, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { LuChevronRight, LuFolder, LuFolderOpen, LuHardDrive } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useGetFolderQuery } from './filesApi';

// The folder tree: children load when a folder is opened (one getFolder per open folder, folders
// come first so one page is enough). Links in the sidebar; in "pick" mode (the move dialog) a
// click chooses the folder instead.

const TREE_PAGE = { page_size: 200, sort: 'name' as const, order: 'asc' as const };

interface TreeProps {
  /** The folder being shown (or picked); 'root' for the top level. */
  currentId: string;
  /** Folders to open from the start: the path to the current folder. */
  openIds?: string[];
  onPick?: (id: string, name: string) => void;
  /** Folders that cannot be picked (none today; kept for moving folders later). */
  label: string;
}

function Row({
  id,
  name,
  depth,
  current,
  expanded,
  onToggle,
  onPick,
  isRoot,
}: {
  id: string;
  name: string;
  depth: number;
  current: boolean;
  expanded: boolean;
  onToggle?: () => void;
  onPick?: (id: string, name: string) => void;
  isRoot?: boolean;
}) {
  const intl = useIntl();
  const FolderIcon = isRoot ? LuHardDrive : expanded ? LuFolderOpen : LuFolder;
  const content = (
    <>
      <Icon as={FolderIcon} boxSize="4" color={current ? 'brand.fg' : 'fg.muted'} aria-hidden flexShrink="0" />
      <Text as="span" truncate>
        {name}
      </Text>
    </>
  );
  const itemStyle = {
    display: 'flex',
    alignItems: 'center',
    gap: '2',
    flex: '1',
    minW: '0',
    py: '1.5',
    pr: '2',
    rounded: 'md',
    textStyle: 'sm',
    fontWeight: current ? 'semibold' : 'normal',
    color: current ? 'brand.fg' : 'fg',
    _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing' },
  } as const;
  return (
    <Flex align="center" pl={`${depth * 14}px`} rounded="md" bg={current ? 'brand.subtle' : undefined} _hover={{ bg: current ? 'brand.subtle' : 'bg.muted' }}>
      {onToggle ? (
        <IconButton
          size="2xs"
          variant="ghost"
          aria-label={intl.formatMessage({ id: expanded ? 'files.tree.collapse' : 'files.tree.expand' }, { name })}
          aria-expanded={expanded}
          onClick={onToggle}
        >
          <Box as={LuChevronRight} transform={expanded ? 'rotate(90deg)' : undefined} transition="transform 0.15s" />
        </IconButton>
      ) : (
        <Box w="6" flexShrink="0" />
      )}
      {onPick ? (
        <chakra.button type="button" textAlign="start" onClick={() => onPick(id, name)} aria-pressed={current} {...itemStyle}>
          {content}
        </chakra.button>
      ) : (
        <chakra.span asChild {...itemStyle}>
          <LocaleLink to={isRoot ? '/files' : `/files/${id}`} aria-current={current ? 'page' : undefined}>
            {content}
          </LocaleLink>
        </chakra.span>
      )}
    </Flex>
  );
}

function Children({
  parentId,
  depth,
  currentId,
  openIds,
  onPick,
}: {
  parentId: string;
  depth: number;
  currentId: string;
  openIds: string[];
  onPick?: TreeProps['onPick'];
}) {
  const intl = useIntl();
  const { data, isLoading } = useGetFolderQuery({ id: parentId, ...TREE_PAGE });
  if (isLoading) return <Spinner size="xs" ml={`${depth * 14 + 30}px`} my="1" aria-label={intl.formatMessage({ id: 'common.loading' })} />;
  const folders = (data?.items ?? []).filter((item) => item.type === 'folder');
  if (folders.length === 0) return null;
  return (
    <ul role="group">
      {folders.map((folder) => (
        <Node key={folder.id} id={folder.id} name={folder.name} depth={depth} currentId={currentId} openIds={openIds} onPick={onPick} />
      ))}
    </ul>
  );
}

function Node({
  id,
  name,
  depth,
  currentId,
  openIds,
  onPick,
}: {
  id: string;
  name: string;
  depth: number;
  currentId: string;
  openIds: string[];
  onPick?: TreeProps['onPick'];
}) {
  const [expanded, setExpanded] = useState(openIds.includes(id));
  // Following a breadcrumb or a folder in the list opens the tree down to it.
  useEffect(() => {
    if (openIds.includes(id)) setExpanded(true);
  }, [openIds, id]);
  return (
    <li>
      <Row id={id} name={name} depth={depth} current={currentId === id} expanded={expanded} onToggle={() => setExpanded((e) => !e)} onPick={onPick} />
      {expanded && <Children parentId={id} depth={depth + 1} currentId={currentId} openIds={openIds} onPick={onPick} />}
    </li>
  );
}

export function FolderTree({ currentId, openIds = [], onPick, label }: TreeProps) {
  const intl = useIntl();
  const rootName = intl.formatMessage({ id: 'files.myFiles' });
  return (
    <Box as="nav" aria-label={label} css={{ '& ul': { listStyle: 'none', m: 0, p: 0 } }}>
      <ul>
        <li>
          <Row id="root" name={rootName} depth={0} current={currentId === 'root'} expanded isRoot onPick={onPick} />
          <Children parentId="root" depth={1} currentId={currentId} openIds={openIds} onPick={onPick} />
        </li>
      </ul>
    </Box>
  );
}
