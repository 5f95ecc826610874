import { Badge, Box, Button, Field, Heading, HStack, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { LuSparkles, LuStethoscope } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { MessageMarkdown } from '../conversations/MessageMarkdown';
import { RecordsPreviewTable } from '../datasets/RecordsPreviewTable';
import { useSendStepParamEvaluationMessageMutation, useSendStepParamMessageMutation, type ParamProblem } from './agentsApi';

const MAX_REQUEST = 8000;
/** Enough to see what the settings do; the whole sample is in the run panel. */
const PREVIEW_ROWS = 5;

/**
 * The selected step's own agents (docs/agents.md): "Fill settings" asks the step-param agent to set
 * this step's params from a sentence (saved as one commit, so undo reverts it) and shows them on a
 * few records; "Check on samples" has the evaluation agent run the step on a few records and list
 * what goes wrong. Without a model, both answer the warning modal through the notices.
 */
export function StepAgentBox({ workflowId, stepId }: { workflowId: string; stepId: string }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [request, setRequest] = useState('');
  const [fill, filling] = useSendStepParamMessageMutation();
  const [check, checking] = useSendStepParamEvaluationMessageMutation();
  const [shown, setShown] = useState<'fill' | 'check' | null>(null);
  const busy = filling.isLoading || checking.isLoading;

  const onFill = async () => {
    if (!request.trim()) return;
    setShown('fill');
    await fill({ workflowId, stepId, message: request.trim() });
  };
  const onCheck = async () => {
    setShown('check');
    await check({ workflowId, stepId, ...(request.trim() ? { message: request.trim() } : {}) });
  };

  const filled = shown === 'fill' ? filling.data : undefined;
  const checked = shown === 'check' ? checking.data : undefined;
  return (
    <Box borderTopWidth="1px" borderColor="border.muted" pt="4">
      <Heading as="h3" size="xs" mb="3" textTransform="uppercase" letterSpacing="wider" color="fg.muted">
        {t('stepAgent.title')}
      </Heading>
      <Stack gap="3">
        <Field.Root>
          <Field.Label srOnly>{t('stepAgent.request')}</Field.Label>
          <Textarea
            size="sm"
            rows={2}
            maxLength={MAX_REQUEST}
            placeholder={t('stepAgent.placeholder')}
            value={request}
            onChange={(e) => setRequest(e.target.value)}
          />
        </Field.Root>
        <HStack gap="2" wrap="wrap">
          <Button size="sm" colorPalette="brand" loading={filling.isLoading} disabled={busy || !request.trim()} onClick={() => void onFill()}>
            <LuSparkles aria-hidden />
            {t('stepAgent.fill')}
          </Button>
          <Button size="sm" variant="outline" loading={checking.isLoading} disabled={busy} onClick={() => void onCheck()}>
            <LuStethoscope aria-hidden />
            {t('stepAgent.check')}
          </Button>
        </HStack>
        <Box aria-live="polite">
          {filled && (
            <Stack gap="2">
              <Text textStyle="xs" color="fg.muted">
                {t(filled.applied ? 'stepAgent.applied' : 'stepAgent.proposed')}
              </Text>
              {filled.message.content && <MessageMarkdown text={filled.message.content} />}
              {filled.preview && (
                <RecordsPreviewTable
                  columns={filled.preview.columns}
                  records={filled.preview.records}
                  rows={PREVIEW_ROWS}
                  label={intl.formatMessage({ id: 'stepAgent.preview' })}
                />
              )}
            </Stack>
          )}
          {checked && (
            <Stack gap="2">
              {checked.problems.length === 0 ? (
                <Text textStyle="sm" color="fg.success">
                  {t('stepAgent.noProblems')}
                </Text>
              ) : (
                <ProblemList problems={checked.problems} />
              )}
              {checked.message.content && <MessageMarkdown text={checked.message.content} />}
            </Stack>
          )}
        </Box>
      </Stack>
    </Box>
  );
}

function ProblemList({ problems }: { problems: ParamProblem[] }) {
  const intl = useIntl();
  return (
    <Stack as="ul" gap="1.5" listStyleType="none" aria-label={intl.formatMessage({ id: 'stepAgent.problems' }, { count: problems.length })}>
      {problems.map((p, i) => (
        <HStack as="li" key={i} textStyle="sm" alignItems="flex-start" gap="2">
          <Badge size="sm" colorPalette={p.severity === 'error' ? 'red' : 'orange'} flexShrink={0}>
            {intl.formatMessage({ id: `stepAgent.severity.${p.severity}` })}
          </Badge>
          <Text>
            {p.param && <Text as="span" fontFamily="mono">{`${p.param}: `}</Text>}
            {p.msg}
          </Text>
        </HStack>
      ))}
    </Stack>
  );
}
