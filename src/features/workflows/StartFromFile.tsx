import { Alert, Button, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useLocalePath } from '../../i18n/useLocale';
import { importStepFor } from '../files/importStep';
import { useAddStepMutation } from '../steps/stepsApi';
import { useCreateWorkflowMutation } from './workflowsApi';

/**
 * Arriving from the file manager's "Use in a workflow" (`?file_id=…&file_name=…`): offers a new
 * workflow that starts by importing that file, and opens it in the editor.
 */
export function StartFromFile() {
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [params, setParams] = useSearchParams();
  const [createWorkflow] = useCreateWorkflowMutation();
  const [addStep] = useAddStepMutation();
  const [busy, setBusy] = useState(false);
  const fileId = params.get('file_id');
  const fileName = params.get('file_name') ?? '';
  if (!fileId) return null;
  const stepType = importStepFor(fileName);

  const start = async () => {
    if (!stepType) return;
    setBusy(true);
    try {
      const workflow = await createWorkflow({ name: intl.formatMessage({ id: 'workflows.fromFile.name' }, { file: fileName }) }).unwrap();
      await addStep({ workflow_id: workflow.id, step_type: stepType, param_inputs: { file: fileId }, version: workflow.version }).unwrap();
      navigate(localePath(`/workflows/${workflow.id}`));
    } catch {
      // The notices already say what went wrong.
      setBusy(false);
    }
  };

  return (
    <Alert.Root status={stepType ? 'info' : 'warning'} borderRadius="l3">
      <Alert.Indicator />
      <Stack gap="2" flex="1" direction={{ base: 'column', md: 'row' }} align={{ md: 'center' }} justify="space-between">
        <Alert.Content>
          <Alert.Title>{intl.formatMessage({ id: 'workflows.fromFile.title' }, { file: fileName })}</Alert.Title>
          <Alert.Description>{intl.formatMessage({ id: stepType ? 'workflows.fromFile.description' : 'workflows.fromFile.unsupported' })}</Alert.Description>
        </Alert.Content>
        <Stack direction="row" gap="2" flexShrink="0">
          {stepType && (
            <Button size="sm" colorPalette="brand" loading={busy} onClick={start}>
              {intl.formatMessage({ id: 'workflows.fromFile.start' })}
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={() => setParams({})}>
            {intl.formatMessage({ id: 'workflows.fromFile.dismiss' })}
          </Button>
        </Stack>
      </Stack>
    </Alert.Root>
  );
}
