import { Box, Button, CloseButton, Flex, HStack, Icon, Input, InputGroup, Text } from '@chakra-ui/react';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { InsertReference } from './InsertReference';
import type { ControlProps } from './ParamField';
import { isReference } from './paramValues';
import { pickerSources, type Chosen, type PickedType } from './pickerSources';

interface PickerControlProps extends ControlProps {
  type: PickedType;
  /** Wraps the control in its labelled field; the dialog goes beside that, outside the field. */
  field: (control: ReactNode) => ReactNode;
}

/**
 * A `file`, `folder` or `dataset` param: the field names what is chosen (and where it is), never its id; a
 * button opens the source's dialog to choose, and an optional param can be cleared. A workflow
 * variable may stand in for the id ({{var.NAME}}), shown as written.
 */
export function PickerControl({ type, field, param, id, value, invalid, onChange, references }: PickerControlProps) {
  const intl = useIntl();
  const t = (key: string, values?: Record<string, string>) => intl.formatMessage({ id: key }, values);
  const source = pickerSources[type];
  const [open, setOpen] = useState(false);
  const text = typeof value === 'string' ? value.trim() : '';
  const reference = isReference(text);
  const chosenId = text && !reference ? text : null;
  const chosen = source.useChosen(chosenId);

  const describe = (c: Chosen): string => {
    if (c.status === 'found') return c.name ?? '';
    if (c.status === 'missing') return t(source.missingKey);
    return t(c.status === 'failed' ? 'params.picker.lookupFailed' : 'common.loading');
  };
  // A reference is shown as written; an id only ever by what it names.
  const shown = reference ? text : chosen ? describe(chosen) : '';
  // Only files and folders have a place to show.
  const where = chosen?.status === 'found' && chosen.path ? [t('files.myFiles'), ...chosen.path].join(' / ') : null;
  const openOnKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      setOpen(true);
    }
  };

  // The field names what is chosen; the dialog (below) is rendered beside the field, not in it.
  const control = (
    <Box w="full">
      <Flex justify="flex-end" mt="-7" mb="1">
        <InsertReference references={references} onInsert={(snippet) => onChange(snippet)} />
      </Flex>
      <HStack gap="2" align="flex-start">
        <Box flex="1" minW="0">
          <InputGroup startElement={<Icon as={source.icon} color={chosen?.status === 'found' ? 'brand.fg' : 'fg.muted'} aria-hidden />}>
            <Input
              id={id}
              readOnly
              value={shown}
              placeholder={t(source.emptyKey)}
              aria-invalid={invalid || undefined}
              data-param-type={param.type}
              fontFamily={reference ? 'mono' : undefined}
              color={chosen?.status === 'missing' ? 'fg.error' : undefined}
              cursor="pointer"
              onClick={() => setOpen(true)}
              onKeyDown={openOnKey}
            />
          </InputGroup>
          {where && (
            <Text textStyle="xs" color="fg.muted" mt="1" truncate title={where}>
              {t('params.picker.location', { path: where })}
            </Text>
          )}
        </Box>
        <Button
          variant="outline"
          aria-haspopup="dialog"
          aria-label={t(text ? 'params.picker.changeLabel' : 'params.picker.choose', { label: param.label })}
          onClick={() => setOpen(true)}
        >
          {t(text ? 'params.picker.change' : 'params.choose')}
        </Button>
        {!param.required && text && <CloseButton variant="ghost" aria-label={t('params.picker.clear', { label: param.label })} onClick={() => onChange('')} />}
      </HStack>
    </Box>
  );

  return (
    <>
      {field(control)}
      <source.Dialog
        open={open}
        param={param}
        chosenId={chosenId}
        chosen={chosen}
        onChoose={(picked) => {
          onChange(picked);
          setOpen(false);
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
