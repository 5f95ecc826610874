import { useState } from 'react';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/renderWithProviders';
import { ColumnCombobox, type ColumnChoice } from './ColumnCombobox';

const columns: ColumnChoice[] = [
  { name: 'region', type: 'VARCHAR' },
  { name: 'amount', type: 'DECIMAL(18,2)' },
  { name: 'ordered_at', type: 'TIMESTAMP' },
];

function OneColumn({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <ColumnCombobox label="Column" columns={columns} inputValue={value} onInputValueChange={setValue} onPick={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

// Typing goes in by paste: user-event's keystrokes into Zag's combobox drop letters in jsdom (seen
// with Chakra's own Combobox alone, not in Chromium, where the journeys type into it key by key).
async function enter(user: { click(el: Element): Promise<void>; paste(text: string): Promise<void> }, text: string) {
  await user.click(screen.getByRole('combobox', { name: 'Column' }));
  await user.paste(text);
}

describe('column picker', () => {
  it("lists the input's columns with their types on a click, and a pick fills the box", async () => {
    const { user } = renderWithProviders(<OneColumn />);
    await user.click(screen.getByRole('combobox', { name: 'Column' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['regiontext', 'amountdecimal', 'ordered_atdate and time']);
    await user.click(screen.getByRole('option', { name: /amount/ }));
    expect(screen.getByTestId('value')).toHaveTextContent('amount');
    expect(screen.getByRole('combobox', { name: 'Column' })).toHaveValue('amount');
  });

  it('filters by what is typed, and keeps a name no column has, as typed', async () => {
    const { user } = renderWithProviders(<OneColumn />);
    await enter(user, 'or');
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['ordered_atdate and time']);
    await user.clear(screen.getByRole('combobox', { name: 'Column' }));
    await enter(user, 'amuont');
    expect(screen.getByTestId('value')).toHaveTextContent(/^amuont$/);
    expect(screen.getByText('No column matches; what you typed is kept as it is.')).toBeInTheDocument();
  });

  it('shows every column again when opened on a chosen one', async () => {
    const { user } = renderWithProviders(<OneColumn initial="region" />);
    await user.click(screen.getByRole('button', { name: 'Show the columns for Column' }));
    expect(await screen.findAllByRole('option')).toHaveLength(3);
  });
});
