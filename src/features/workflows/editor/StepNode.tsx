import { Badge, Box, Flex, Icon, Text, VisuallyHidden } from '@chakra-ui/react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { LuCircleAlert, LuPencilLine, LuUnplug } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { NodeRunBadge } from '../../runs/RunStateBadge';
import { lookOf } from './categories';
import type { StepFlowNode } from './graph';

/** One step on the canvas: category colour and icon, name, type; inputs on top, output below
 *  (not connectable on a read-only canvas). Memoised: it re-renders only when its own step,
 *  selection or unsaved mark changes. */
export const StepNode = memo(function StepNode({ data, selected, isConnectable }: NodeProps<StepFlowNode>) {
  const intl = useIntl();
  const look = lookOf(data.category);
  const missingText = data.missing.length
    ? intl.formatMessage({ id: 'editor.node.missing' }, { params: intl.formatList(data.missing, { type: 'conjunction' }) })
    : '';
  return (
    <Box
      colorPalette={look.palette}
      w="56"
      bg="bg.panel"
      color="fg"
      rounded="xl"
      borderWidth="1px"
      borderColor={
        selected ? 'brand.solid' : data.run?.state === 'failed' ? 'red.emphasized' : data.missing.length || data.needsInput ? 'orange.emphasized' : 'border'
      }
      shadow={selected ? '0 0 0 3px var(--chakra-colors-brand-muted), var(--chakra-shadows-md)' : 'sm'}
      transition="box-shadow 0.15s, border-color 0.15s"
      data-testid="step-node"
      aria-label={data.name}
    >
      {data.acceptsInputs && <Handle type="target" position={Position.Top} className="step-handle" isConnectable={isConnectable} />}
      <Flex gap="2.5" align="center" p="2.5">
        <Flex boxSize="8" flexShrink="0" rounded="lg" align="center" justify="center" bg="colorPalette.subtle" color="colorPalette.fg">
          <Icon as={look.icon} boxSize="4" aria-hidden />
        </Flex>
        <Box minW="0" flex="1">
          <Text fontWeight="semibold" textStyle="sm" truncate>
            {data.name}
          </Text>
          <Text textStyle="xs" color="fg.muted" truncate>
            {data.typeName}
          </Text>
          {data.needsInput && (
            <Badge
              colorPalette="orange"
              variant="subtle"
              size="sm"
              mt="1"
              me="1"
              maxW="full"
              title={intl.formatMessage({ id: 'editor.node.noInputHint' })}
              data-testid="step-no-input"
            >
              <LuUnplug aria-hidden />
              <Text as="span" truncate>
                {intl.formatMessage({ id: 'editor.node.noInput' })}
              </Text>
              <VisuallyHidden>{intl.formatMessage({ id: 'editor.node.noInputHint' })}</VisuallyHidden>
            </Badge>
          )}
          {data.unsaved && (
            <Badge
              colorPalette="blue"
              variant="subtle"
              size="sm"
              mt="1"
              me="1"
              maxW="full"
              title={intl.formatMessage({ id: 'editor.node.unsavedHint' })}
              data-testid="step-unsaved"
            >
              <LuPencilLine aria-hidden />
              <Text as="span" truncate>
                {intl.formatMessage({ id: 'editor.node.unsaved' })}
              </Text>
              <VisuallyHidden>{intl.formatMessage({ id: 'editor.node.unsavedHint' })}</VisuallyHidden>
            </Badge>
          )}
          {data.missing.length > 0 && (
            <Badge colorPalette="orange" variant="subtle" size="sm" mt="1" maxW="full" title={missingText} data-testid="step-needs-settings">
              <LuCircleAlert aria-hidden />
              <Text as="span" truncate>
                {intl.formatMessage({ id: 'editor.node.needsSettings' })}
              </Text>
              <VisuallyHidden>{missingText}</VisuallyHidden>
            </Badge>
          )}
          {data.run && <NodeRunBadge stepRun={data.run} />}
        </Box>
      </Flex>
      <Box h="1" bg="colorPalette.solid" roundedBottom="xl" opacity={0.85} />
      <Handle type="source" position={Position.Bottom} className="step-handle" isConnectable={isConnectable} />
    </Box>
  );
});

export const nodeTypes = { step: StepNode };
