import { Avatar, Box, Button, Menu, Portal, Text } from '@chakra-ui/react';
import { LuChevronDown, LuLogOut, LuSettings, LuWallet } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { areasFor } from '../app/areas';
import { AreaIcon } from '../app/areaIcons';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { selectUser } from '../features/auth/authSlice';
import { logout } from '../features/auth/authThunks';
import { formatCredits } from '../features/usage/format';
import { useGetBalanceQuery } from '../features/usage/usageApi';
import { useLocalePath } from '../i18n/useLocale';
import { initials } from './initials';

/** The signed-in user's menu: who they are, their credits (on a billing server), the help and staff
 *  areas their role may open (the header bar keeps to the work areas), their settings, and "Sign out". */
export function UserMenu() {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const intl = useIntl();
  const { data: balance } = useGetBalanceQuery(undefined, { skip: !user });
  if (!user) return null;
  const secondaryAreas = areasFor(user).filter((area) => area.secondary);

  const signOut = () => {
    // Failures were already shown by the notices middleware and the session is cleared either way.
    dispatch(logout()).catch(() => undefined);
  };

  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      // Selection is handled at the root: per-item onSelect listeners attach late with a portal.
      onSelect={({ value }) => {
        if (value === 'billing') navigate(localePath('/billing'));
        if (value === 'settings') navigate(localePath('/settings'));
        if (value === 'sign-out') signOut();
        const area = secondaryAreas.find((a) => a.id === value);
        if (area) navigate(localePath(area.path));
      }}
    >
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" px="1.5" aria-label={intl.formatMessage({ id: 'nav.accountMenu' })}>
          <Avatar.Root size="xs" colorPalette="brand">
            <Avatar.Fallback>{initials(user.name)}</Avatar.Fallback>
          </Avatar.Root>
          <Text as="span" display={{ base: 'none', md: 'inline' }} maxW="40" truncate>
            {user.name}
          </Text>
          <LuChevronDown aria-hidden />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="60">
            <Box px="2" py="1.5">
              <Text fontWeight="semibold" truncate>
                {user.name}
              </Text>
              <Text textStyle="sm" color="fg.muted" truncate>
                {user.email}
              </Text>
            </Box>
            <Menu.Separator />
            <Menu.Item value="billing">
              <LuWallet aria-hidden />
              <FormattedMessage id="nav.billing" />
              {balance?.billing_enabled && (
                <Text as="span" ms="auto" textStyle="sm" color="fg.muted" data-testid="menu-balance">
                  <FormattedMessage id="billing.menuBalance" values={{ count: balance.balance, credits: formatCredits(intl, balance.balance) }} />
                </Text>
              )}
            </Menu.Item>
            {secondaryAreas.map((area) => (
              <Menu.Item key={area.id} value={area.id}>
                <AreaIcon id={area.id} aria-hidden />
                <FormattedMessage id={area.labelId} />
              </Menu.Item>
            ))}
            <Menu.Separator />
            <Menu.Item value="settings">
              <LuSettings aria-hidden />
              <FormattedMessage id="nav.settings" />
            </Menu.Item>
            <Menu.Item value="sign-out">
              <LuLogOut aria-hidden />
              <FormattedMessage id="auth.signOut" />
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
