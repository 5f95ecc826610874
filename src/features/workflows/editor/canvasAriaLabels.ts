import type { AriaLabelConfig } from '@xyflow/react';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';

/** React Flow's own labels (the zoom buttons' tooltips, the minimap's name) in the interface's
 *  language; React Flow ships them in English only. */
export function useCanvasAriaLabels(): Partial<AriaLabelConfig> {
  const intl = useIntl();
  return useMemo(
    () => ({
      'controls.ariaLabel': intl.formatMessage({ id: 'editor.canvas.controls' }),
      'controls.zoomIn.ariaLabel': intl.formatMessage({ id: 'editor.canvas.zoomIn' }),
      'controls.zoomOut.ariaLabel': intl.formatMessage({ id: 'editor.canvas.zoomOut' }),
      'controls.fitView.ariaLabel': intl.formatMessage({ id: 'editor.canvas.fitView' }),
      'minimap.ariaLabel': intl.formatMessage({ id: 'editor.canvas.minimap' }),
    }),
    [intl],
  );
}
