import { VisuallyHidden } from '@chakra-ui/react';
import { useRef, type ChangeEvent } from 'react';
import { useIntl } from 'react-intl';
import { filesFromInput } from './collectFiles';
import type { PendingFile } from './uploads';

/**
 * The browser's file and folder pickers behind our own buttons: `inputs` (hidden) goes somewhere
 * in the page, `pickFiles()` / `pickFolder()` open them, `onPick` gets what was chosen.
 */
export function useUploadPickers(onPick: (pending: PendingFile[]) => void) {
  const intl = useIntl();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    onPick(filesFromInput(e.target.files));
    e.target.value = '';
  };
  const inputs = (
    <VisuallyHidden>
      <input
        ref={fileInput}
        type="file"
        multiple
        tabIndex={-1}
        aria-label={intl.formatMessage({ id: 'files.upload' })}
        data-testid="upload-files-input"
        onChange={onChange}
      />
      <input
        ref={(el) => {
          folderInput.current = el;
          // Not a React prop: set the attribute so browsers offer a folder picker.
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        tabIndex={-1}
        aria-label={intl.formatMessage({ id: 'files.uploadFolder' })}
        data-testid="upload-folder-input"
        onChange={onChange}
      />
    </VisuallyHidden>
  );
  return { inputs, pickFiles: () => fileInput.current?.click(), pickFolder: () => folderInput.current?.click() };
}
