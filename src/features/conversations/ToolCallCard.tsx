import { Box, Flex, Spinner, Text } from '@chakra-ui/react';
import { LuCircleAlert, LuCircleCheck, LuWrench } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { MessagePart } from './conversationTypes';

type ToolCall = Extract<MessagePart, { type: 'tool_call' }>;
type ToolResult = Extract<MessagePart, { type: 'tool_result' }>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const firstString = (value: unknown, keys: string[]) => {
  if (!isRecord(value)) return undefined;
  for (const key of keys) if (typeof value[key] === 'string' && value[key]) return value[key] as string;
  return undefined;
};

/**
 * What the tool did, in the server's words when its result says it ("Added step Filter rows": a
 * `summary`, `label` or `message`), else the tool's name with the thing it was called on.
 */
export function toolLabel(
  call: ToolCall | undefined,
  result: ToolResult | undefined,
): { tool: string; said: string | undefined; target: string | undefined; error: string | undefined } {
  const tool = call?.name ?? result?.name ?? '';
  // A refused call's `problems` say what was wrong ("There is no step type …"); its `error` says
  // only that there are problems, for the model.
  const problems =
    result && !result.ok && isRecord(result.result) && Array.isArray(result.result.problems)
      ? result.result.problems.map((p) => firstString(p, ['msg'])).filter(Boolean)
      : [];
  const error = result && !result.ok ? (problems.length ? problems.join(' ') : (firstString(result.result, ['error', 'detail', 'message']) ?? '')) : undefined;
  const said = result?.ok ? firstString(result.result, ['summary', 'label', 'message']) : undefined;
  const target = firstString(call?.args, ['name', 'label', 'step_name', 'title', 'query', 'step_type']);
  return { tool, said, target, error };
}

/** One tool call of the assistant with its result: running, done, or failed with the reason. */
export function ToolCallCard({ call, result }: { call?: ToolCall; result?: ToolResult }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { tool: name, said, target, error } = toolLabel(call, result);
  // The coordinator's tools by what they do ("Add step"); a tool this screen does not know by its name.
  const tool = intl.messages[`chat.tool.name.${name}`] ? t(`chat.tool.name.${name}`) : name;
  const state = !result ? 'running' : result.ok ? 'done' : 'failed';
  const text =
    state === 'failed'
      ? error
        ? t('chat.tool.failedWith', { tool, error })
        : t('chat.tool.failed', { tool })
      : (said ??
        (target
          ? t(state === 'running' ? 'chat.tool.runningOn' : 'chat.tool.doneOn', { tool, target })
          : t(state === 'running' ? 'chat.tool.running' : 'chat.tool.done', { tool })));
  return (
    <Flex
      data-testid="tool-call"
      data-state={state}
      align="flex-start"
      gap="2"
      my="1.5"
      px="2.5"
      py="1.5"
      borderWidth="1px"
      borderColor={state === 'failed' ? 'border.error' : 'border.muted'}
      rounded="md"
      bg="bg.subtle"
      textStyle="xs"
    >
      <Box pt="0.5" color={state === 'failed' ? 'fg.error' : state === 'done' ? 'fg.success' : 'fg.muted'} aria-hidden>
        {state === 'running' ? <Spinner size="xs" /> : state === 'done' ? <LuCircleCheck /> : <LuCircleAlert />}
      </Box>
      <Text flex="1" minW="0" wordBreak="break-word">
        {text}
      </Text>
      <Box pt="0.5" color="fg.subtle" aria-hidden>
        <LuWrench />
      </Box>
    </Flex>
  );
}
