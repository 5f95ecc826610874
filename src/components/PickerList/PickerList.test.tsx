import { screen } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../test/renderWithProviders';
import { PickerList } from './PickerList';

interface Entry {
  id: string;
  name: string;
  folder?: boolean;
  locked?: boolean;
}

const entries: Entry[] = [
  { id: 'd', name: 'Docs', folder: true },
  { id: 'a', name: 'a.csv' },
  { id: 'b', name: 'b.pdf', locked: true },
];

function Picker({
  onOpen = jest.fn(),
  onChoose = jest.fn(),
  items = entries,
}: {
  onOpen?: (e: Entry) => void;
  onChoose?: (e: Entry) => void;
  items?: Entry[];
}) {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <PickerList
      label="Entries"
      items={items}
      itemKey={(e) => e.id}
      row={(e) => ({ name: e.name, detail: e.locked ? 'Cannot be read' : e.folder ? 'Folder' : '1 KB' })}
      isSelected={(e) => e.id === selected}
      isSelectable={(e) => !e.folder}
      isDisabled={(e) => !!e.locked}
      onActivate={(e) => (e.folder ? onOpen(e) : setSelected(e.id))}
      onChoose={onChoose}
      isLoading={false}
      emptyText="Nothing here"
    />
  );
}

describe('PickerList', () => {
  it('selects a row on a click, chooses on a double click, opens what only opens, and leaves a dimmed row alone', async () => {
    const onOpen = jest.fn();
    const onChoose = jest.fn();
    const { user } = renderWithProviders(<Picker onOpen={onOpen} onChoose={onChoose} />);
    const file = screen.getByRole('button', { name: 'a.csv' });
    expect(file).toHaveAccessibleDescription('1 KB');
    expect(file).toHaveAttribute('aria-pressed', 'false');
    await user.click(file);
    expect(file).toHaveAttribute('aria-pressed', 'true');

    const folder = screen.getByRole('button', { name: 'Docs' });
    expect(folder).not.toHaveAttribute('aria-pressed');
    await user.click(folder);
    expect(onOpen).toHaveBeenCalledWith(entries[0]);

    const locked = screen.getByRole('button', { name: 'b.pdf' });
    expect(locked).toHaveAttribute('aria-disabled', 'true');
    await user.dblClick(locked);
    expect(onChoose).not.toHaveBeenCalled();

    await user.dblClick(file);
    expect(onChoose).toHaveBeenCalledWith(entries[1]);
  });

  it('moves between rows with the arrow keys, Home and End', async () => {
    const { user } = renderWithProviders(<Picker />);
    screen.getByRole('button', { name: 'Docs' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'a.csv' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('button', { name: 'b.pdf' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('button', { name: 'Docs' })).toHaveFocus();
  });

  it('says when there is nothing to pick', () => {
    renderWithProviders(<Picker items={[]} />);
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Entries' })).not.toBeInTheDocument();
  });
});
