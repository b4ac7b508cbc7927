import { Card, CardContent, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { useSessionUser } from '../session/sessionStore';
import { DetailList } from './DetailList';

/** `/pages/profile` ("My Profile"): the signed-in account. */
export default function AccountPage() {
  const translate = useTranslate();
  const user = useSessionUser();
  if (!user) return null;
  return (
    <Card component="section" aria-labelledby="account-title">
      <Title title={translate('app.nav.my_profile')} />
      <CardContent>
        <Typography id="account-title" variant="h5" component="h1" gutterBottom>
          {translate('app.account.title')}
        </Typography>
        <DetailList
          rows={[
            ['app.account.display_name', user.data.displayName],
            ['app.account.email', user.data.email],
            ['app.account.company', user.data.companyName],
            [
              'app.account.roles',
              user.role
                .map((role) => translate(`app.account.role_names.${role}`, { _: role }))
                .join(', '),
            ],
          ]}
        />
      </CardContent>
    </Card>
  );
}
