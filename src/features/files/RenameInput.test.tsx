import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/renderWithProviders';
import { RenameInput } from './RenameInput';

function renderRename(route = '/files') {
  const onSave = jest.fn();
  const onCancel = jest.fn();
  const rendered = renderWithProviders(<RenameInput name="big.bin" onSave={onSave} onCancel={onCancel} />, { route });
  return { ...rendered, onSave, onCancel };
}

describe('RenameInput', () => {
  it.each([
    ['/files', 'New name for big.bin', 'Enter a name.'],
    ['/cn/files', 'big.bin 的新名称', '请输入名称。'],
  ])('refuses an empty name at %s: an error under the field, the editor stays open, Escape cancels', async (route, label, message) => {
    const { user, onSave, onCancel } = renderRename(route);
    const input = await screen.findByRole('textbox', { name: label });
    await user.clear(input);
    await user.type(input, '   {Enter}');
    expect(await screen.findByText(message)).toBeVisible();
    expect(input).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(onSave).not.toHaveBeenCalled();
    expect(onCancel).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSave).not.toHaveBeenCalled();
  });

  it('saves a changed name, trimmed, and drops the error once the name is back', async () => {
    const { user, onSave } = renderRename();
    const input = await screen.findByRole('textbox', { name: 'New name for big.bin' });
    await user.clear(input);
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Enter a name.')).toBeVisible();
    await user.type(input, ' huge.bin {Enter}');
    expect(screen.queryByText('Enter a name.')).not.toBeInTheDocument();
    expect(onSave).toHaveBeenCalledWith('huge.bin');
  });
});
