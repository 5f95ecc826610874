import { useIntl } from 'react-intl';
import { optionLabel } from './optionLabel';

/** The `<option>`s of an enum's values, each in the reader's words (optionLabel). */
export function OptionItems({ options }: { options: readonly string[] }) {
  const intl = useIntl();
  return (
    <>
      {options.map((option) => (
        <option key={option} value={option}>
          {optionLabel(intl, option)}
        </option>
      ))}
    </>
  );
}
