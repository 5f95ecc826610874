import { screen, within } from '@testing-library/react';
import type { ParamOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import { renderWithProviders } from '../../test/renderWithProviders';
import { ParamForm } from './ParamForm';

const order: ParamOut = { name: 'order', type: 'enum', label: 'Order', help: '', required: true, options: ['ascending', 'last', 'gpt-4o-mini', 'keep_all'] };

function renderSelect(route: string) {
  renderWithProviders(
    <ParamForm
      params={[order]}
      values={{ order: 'ascending' }}
      edits={{}}
      unsaved={false}
      references={{ variables: [], fields: [], notes: [], preview_step_ids: [] }}
      serverErrors={{}}
      saving={false}
      onEdit={jest.fn()}
      onSave={jest.fn()}
      onDiscard={jest.fn()}
    />,
    { route },
  );
  return within(screen.getByRole('combobox'))
    .getAllByRole('option')
    .map((o) => [o.getAttribute('value'), o.textContent]);
}

describe('select option labels', () => {
  it('shows translated labels, keeps values, and makes unknown words readable (English)', () => {
    expect(renderSelect('/')).toEqual([
      ['ascending', 'Ascending'],
      ['last', 'Last'],
      ['gpt-4o-mini', 'gpt-4o-mini'],
      ['keep_all', 'Keep all'],
    ]);
  });

  it('shows Chinese labels in the Chinese interface', () => {
    const options = renderSelect('/cn');
    expect(options[0]).toEqual(['ascending', '升序']);
    expect(options[1]).toEqual(['last', '最后一个']);
  });
});
