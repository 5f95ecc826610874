import { screen } from '@testing-library/react';
import { renderWithProviders, signedInState } from '../test/renderWithProviders';
import { testUser } from '../test/handlers';
import { initials } from './initials';
import { UserMenu } from './UserMenu';

describe('avatar initials', () => {
  it('takes whole graphemes, so an emoji is never cut in half', () => {
    expect(initials('鲍勃 Bob 🦊')).toBe('鲍🦊');
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('  Ada  ')).toBe('A');
    expect(initials('👩‍👩‍👧 Family')).toBe('👩‍👩‍👧F');
    expect(initials('')).toBe('');
  });

  it("shows the user's initials without a broken character in the header menu", () => {
    renderWithProviders(<UserMenu />, { preloadedState: signedInState({ ...testUser, name: '鲍勃 Bob 🦊' }) });
    const button = screen.getByRole('button', { name: /account|账户|账号/i });
    expect(button.textContent).toContain('鲍🦊');
    expect(button.textContent).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
