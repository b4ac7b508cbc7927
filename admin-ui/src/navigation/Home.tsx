import { Navigate } from 'react-router-dom';
import { useSessionUser } from '../session/sessionStore';
import { authRoles, satisfiesAuth } from './roles';

/** `/`: the operator's companies, a verified company's customers, else the company profile. */
export function Home() {
  const user = useSessionUser();
  if (!user) return null;
  if (satisfiesAuth(authRoles.operator, user.role)) return <Navigate to="/companies" replace />;
  return <Navigate to={user.data.verified === 1 ? '/customers' : '/profile'} replace />;
}
