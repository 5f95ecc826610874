import type { IntlShape } from 'react-intl';

/** A select option's label in the current language: `steps.option.<value>` when there is one; else
 *  a plain lower-case word is made readable ("keep_all" → "Keep all") and anything else (model
 *  names, HTTP methods, encodings) is shown as written. */
export function optionLabel(intl: IntlShape, value: string): string {
  const id = `steps.option.${value}`;
  if (intl.messages[id]) return intl.formatMessage({ id });
  if (!/^[a-z_]+$/.test(value)) return value;
  const words = value.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A catalogue category's badge label (`steps.category.<category>`), the raw value if unknown. */
export function categoryLabel(intl: IntlShape, category: string): string {
  const id = `steps.category.${category}`;
  return intl.messages[id] ? intl.formatMessage({ id }) : category;
}
