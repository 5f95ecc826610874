import { Field, Input } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';

/** Inline rename: Enter (or leaving the field) saves a changed name, Escape puts the old one back.
 *  An empty name is not saved: it says so under the field and keeps the editor open. */
export function RenameInput({ name, onSave, onCancel }: { name: string; onSave: (name: string) => void; onCancel: () => void }) {
  const intl = useIntl();
  const [value, setValue] = useState(name);
  const [empty, setEmpty] = useState(false);
  const done = useRef(false);
  const ref = useRef<HTMLInputElement>(null);
  const openedAt = useRef(Date.now());
  useEffect(() => {
    const input = ref.current;
    if (!input) return;
    input.focus();
    // Select the name without its extension, as desktop file managers do.
    const dot = name.lastIndexOf('.');
    input.setSelectionRange(0, dot > 0 ? dot : name.length);
  }, [name]);
  const finish = (save: boolean) => {
    if (done.current) return;
    const next = value.trim();
    if (save && !next) {
      setEmpty(true);
      return;
    }
    done.current = true;
    if (save && next && next !== name) onSave(next);
    else onCancel();
  };
  return (
    <Field.Root invalid={empty} onClick={(e) => e.stopPropagation()}>
      <Input
        ref={ref}
        size="sm"
        value={value}
        aria-label={intl.formatMessage({ id: 'files.renameLabel' }, { name })}
        onChange={(e) => {
          setValue(e.target.value);
          if (e.target.value.trim()) setEmpty(false);
        }}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            finish(true);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            finish(false);
          }
        }}
        onBlur={() => {
          // The menu that started the rename hands focus back to its button as it closes: take it
          // back rather than ending the rename the user just asked for.
          if (Date.now() - openedAt.current < 500) {
            setTimeout(() => ref.current?.focus(), 0);
            return;
          }
          finish(true);
        }}
      />
      {empty && <Field.ErrorText>{intl.formatMessage({ id: 'files.renameEmpty' })}</Field.ErrorText>}
    </Field.Root>
  );
}
