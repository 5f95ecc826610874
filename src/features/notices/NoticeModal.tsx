import { Button, Dialog, Icon, Portal, Text, HStack } from '@chakra-ui/react';
import { useRef } from 'react';
import type { IconType } from 'react-icons';
import { LuCircleAlert, LuCircleCheck, LuInfo, LuTriangleAlert } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { Modal } from '../../../server/src/http/common.schemas';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { modalButtonClicked, selectFirstModalMessage } from './noticesSlice';

// The modal of spec §2: the first message that carries modal data, titled by its level, one button
// per name, any button closes it. It sits above everything else on the page (layer > 1000).

export const MODAL_LAYER = 1400;

/** Used only when the server sends no buttons, so the user is never trapped. */
const FALLBACK_BUTTON = 'OK';

const levels: Record<string, { titleId: string; icon: IconType; palette: string }> = {
  success: { titleId: 'notices.modal.success', icon: LuCircleCheck, palette: 'green' },
  warning: { titleId: 'notices.modal.warning', icon: LuTriangleAlert, palette: 'orange' },
  error: { titleId: 'notices.modal.error', icon: LuCircleAlert, palette: 'red' },
  info: { titleId: 'notices.modal.info', icon: LuInfo, palette: 'blue' },
};

export function isCancelButton(name: string): boolean {
  return name.trim().toLowerCase() === 'cancel';
}

export function NoticeModal() {
  const dispatch = useAppDispatch();
  const intl = useIntl();
  const message = useAppSelector(selectFirstModalMessage);
  // While the dialog animates out its message is already gone; keep showing what it said.
  const last = useRef<Modal | null>(null);
  if (message?.modal) last.current = message.modal;
  const modal = message?.modal ?? last.current;
  const look = levels[modal?.level ?? 'info'] ?? levels.info;
  const buttons = modal && modal.buttons.length > 0 ? modal.buttons : [FALLBACK_BUTTON];
  const urgent = modal?.level === 'error' || modal?.level === 'warning';

  return (
    <Dialog.Root
      open={Boolean(message?.modal)}
      role={urgent ? 'alertdialog' : 'dialog'}
      placement="center"
      // Only a button closes it: the server may be waiting for which one was chosen.
      closeOnEscape={false}
      closeOnInteractOutside={false}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop zIndex={MODAL_LAYER} />
        <Dialog.Positioner zIndex={MODAL_LAYER} px="4">
          <Dialog.Content colorPalette={look.palette} maxW="md">
            <Dialog.Header>
              <HStack gap="3">
                <Icon as={look.icon} color="colorPalette.solid" boxSize="6" aria-hidden />
                <Dialog.Title>{intl.formatMessage({ id: look.titleId })}</Dialog.Title>
              </HStack>
            </Dialog.Header>
            <Dialog.Body>
              <Text whiteSpace="pre-wrap" color="fg.muted">
                {modal?.content}
              </Text>
            </Dialog.Body>
            <Dialog.Footer gap="2" flexWrap="wrap">
              {modal &&
                buttons.map((button) => (
                  <Button
                    key={button}
                    data-variant={isCancelButton(button) ? 'secondary' : 'primary'}
                    variant={isCancelButton(button) ? 'outline' : 'solid'}
                    colorPalette={isCancelButton(button) ? 'gray' : 'brand'}
                    onClick={() => dispatch(modalButtonClicked({ modal_id: modal.modal_id, button }))}
                  >
                    {button}
                  </Button>
                ))}
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
