import { formatValidationItem } from './describeResponse';

describe('formatValidationItem', () => {
  it('drops the first location element and joins the rest with dots', () => {
    expect(formatValidationItem({ msg: 'Field required', loc: ['body', 'address', 'city'] })).toBe('Field required (address.city)');
  });

  it('keeps numeric path parts', () => {
    expect(formatValidationItem({ msg: 'Too short', loc: ['body', 'items', 0, 'name'] })).toBe('Too short (items.0.name)');
  });

  it('shows just the message when nothing is left after dropping the first element', () => {
    expect(formatValidationItem({ msg: 'Invalid body', loc: ['body'] })).toBe('Invalid body');
    expect(formatValidationItem({ msg: 'Invalid', loc: [] })).toBe('Invalid');
    expect(formatValidationItem({ msg: 'Invalid' })).toBe('Invalid');
  });
});
