import { Badge, Box, Flex, Icon, Input, InputGroup, Spinner, Stack, Text } from '@chakra-ui/react';
import { memo, useMemo, useState, type DragEvent } from 'react';
import { LuPlus, LuSearch } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { StepInfoOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { formatCredits } from '../usage/format';
import { useGetBalanceQuery } from '../usage/usageApi';
import { lookOf } from '../workflows/editor/categories';
import { STEP_DRAG_TYPE } from '../workflows/editor/StepCanvas';
import { useListStepInfosQuery } from './stepInfosApi';

const CATEGORY_ORDER = ['source', 'transform', 'combine', 'enrich', 'output'];

/** The step's price (from the server's config) where the server bills and the step costs anything. */
function CostHint({ cost }: { cost: StepInfoOut['cost'] }) {
  const intl = useIntl();
  if (cost.credits <= 0) return null;
  return (
    <Text textStyle="xs" color="fg.muted" data-testid="catalogue-cost">
      {intl.formatMessage(
        { id: cost.per === 'record' ? 'billing.cost.perRecord' : 'billing.cost.perRun' },
        { count: cost.credits, credits: formatCredits(intl, cost.credits) },
      )}
    </Text>
  );
}

const CatalogueItem = memo(function CatalogueItem({ info, onAdd, showCost }: { info: StepInfoOut; onAdd: (id: string) => void; showCost: boolean }) {
  const intl = useIntl();
  const look = lookOf(info.category);
  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(STEP_DRAG_TYPE, info.id);
    event.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <Box as="li" listStyleType="none">
      <Flex
        as="button"
        w="full"
        textAlign="start"
        gap="3"
        p="2.5"
        rounded="lg"
        align="flex-start"
        colorPalette={look.palette}
        draggable
        onDragStart={onDragStart}
        onClick={() => onAdd(info.id)}
        _hover={{ bg: 'bg.muted' }}
        _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}
        cursor="grab"
        aria-label={intl.formatMessage({ id: 'catalogue.add' }, { name: info.name })}
        title={info.description}
        className="group"
      >
        <Flex boxSize="8" flexShrink="0" rounded="lg" align="center" justify="center" bg="colorPalette.subtle" color="colorPalette.fg">
          <Icon as={look.icon} boxSize="4" aria-hidden />
        </Flex>
        <Box flex="1" minW="0">
          <Text fontWeight="medium" textStyle="sm">
            {info.name}
          </Text>
          <Text textStyle="xs" color="fg.muted" lineClamp={2}>
            {info.description}
          </Text>
          {showCost && <CostHint cost={info.cost} />}
        </Box>
        <Icon as={LuPlus} color="fg.subtle" boxSize="4" mt="1" opacity={0} _groupHover={{ opacity: 1 }} aria-hidden />
      </Flex>
    </Box>
  );
});

/**
 * The step catalogue: type to search by meaning ("remove duplicate rows" finds Deduplicate), click
 * a step to add it (after the selected step, connected), or drag it onto the canvas.
 */
export function CataloguePanel({ onAdd }: { onAdd: (stepInfoId: string) => void }) {
  const intl = useIntl();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const { data, isFetching } = useListStepInfosQuery({ q: q || undefined });
  // Prices mean nothing on a server that does not bill (self-hosted).
  const showCost = useGetBalanceQuery().data?.billing_enabled ?? false;
  const groups = useMemo(() => {
    if (!data || q) return null;
    return CATEGORY_ORDER.map((category) => ({ category, items: data.items.filter((i) => i.category === category) })).filter((g) => g.items.length);
  }, [data, q]);

  return (
    <Stack gap="3" h="full" minH="0">
      <InputGroup startElement={isFetching ? <Spinner size="xs" /> : <LuSearch aria-hidden />}>
        <Input
          type="search"
          size="sm"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-label={intl.formatMessage({ id: 'catalogue.search' })}
          placeholder={intl.formatMessage({ id: 'catalogue.searchPlaceholder' })}
        />
      </InputGroup>
      <Text textStyle="xs" color="fg.muted">
        {intl.formatMessage({ id: q ? 'catalogue.rankedHint' : 'catalogue.hint' })}
      </Text>
      <Box flex="1" overflowY="auto" mx="-2" px="2" minH="0">
        {groups ? (
          groups.map((group) => (
            <Box key={group.category} mb="4">
              <Badge size="sm" variant="plain" color="fg.muted" textTransform="uppercase" letterSpacing="wider" px="0" mb="1">
                {intl.formatMessage({ id: `catalogue.category.${group.category}` })}
              </Badge>
              <Stack as="ul" gap="0.5">
                {group.items.map((info) => (
                  <CatalogueItem key={info.id} info={info} onAdd={onAdd} showCost={showCost} />
                ))}
              </Stack>
            </Box>
          ))
        ) : (
          <Stack as="ul" gap="0.5" aria-label={intl.formatMessage({ id: 'catalogue.results' })}>
            {data?.items.map((info) => (
              <CatalogueItem key={info.id} info={info} onAdd={onAdd} showCost={showCost} />
            ))}
            {data && data.items.length === 0 && (
              <Text textStyle="sm" color="fg.muted" py="4" textAlign="center">
                {intl.formatMessage({ id: 'catalogue.noMatches' })}
              </Text>
            )}
          </Stack>
        )}
      </Box>
    </Stack>
  );
}
