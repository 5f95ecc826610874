import { Button, Flex, Stack, Switch, Textarea } from '@chakra-ui/react';
import { useState, type KeyboardEvent } from 'react';
import { LuSendHorizontal, LuSquare } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { MAX_MESSAGE_CHARS } from './conversationTypes';

export interface ComposerProps {
  streaming: boolean;
  /** Answers whether the message was taken; if not, the text stays for another try. */
  onSend: (content: string) => Promise<boolean>;
  onStop: () => void;
  /** The coordinator's "propose only" switch; absent for agents that do not edit. */
  dryRun?: { value: boolean; onChange: (value: boolean) => void };
  placeholder?: string;
}

/** The message box: Enter sends, Shift+Enter is a new line; Stop (or Escape) while an answer streams. */
export function Composer({ streaming, onSend, onStop, dryRun, placeholder }: ComposerProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [text, setText] = useState('');
  const content = text.trim();

  const send = async () => {
    if (!content || streaming) return;
    setText('');
    if (!(await onSend(content))) setText((now) => now || text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && streaming) {
      event.preventDefault();
      onStop();
      return;
    }
    // Enter while an input method composes (Chinese, Japanese) picks a candidate, it does not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  return (
    <Stack
      gap="2"
      as="form"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Textarea
        aria-label={t('chat.input.label')}
        placeholder={placeholder ?? t('chat.input.placeholder')}
        value={text}
        maxLength={MAX_MESSAGE_CHARS}
        rows={3}
        size="sm"
        resize="vertical"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <Flex align="center" gap="2" justify="space-between" wrap="wrap">
        {dryRun ? (
          <Switch.Root size="sm" colorPalette="brand" title={t('chat.dryRunHint')} checked={dryRun.value} onCheckedChange={(d) => dryRun.onChange(d.checked)}>
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label textStyle="xs">{t('chat.dryRun')}</Switch.Label>
          </Switch.Root>
        ) : (
          <span />
        )}
        {streaming ? (
          <Button size="sm" variant="outline" colorPalette="red" onClick={onStop} aria-label={t('chat.stop')} type="button">
            <LuSquare aria-hidden />
            {t('chat.stop')}
          </Button>
        ) : (
          <Button size="sm" colorPalette="brand" type="submit" disabled={!content} aria-label={t('chat.send')}>
            <LuSendHorizontal aria-hidden />
            {t('chat.send')}
          </Button>
        )}
      </Flex>
    </Stack>
  );
}
