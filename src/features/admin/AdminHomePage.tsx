import { Navigate } from 'react-router-dom';
import { useLocalePath } from '../../i18n/useLocale';

/** `/admin`: the Admin area's entry opens its first page. */
export function AdminHomePage() {
  const localePath = useLocalePath();
  return <Navigate to={localePath('/admin/invitation-codes')} replace />;
}
