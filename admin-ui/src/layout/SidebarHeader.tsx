import { Box, MenuItem, TextField, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { authRoles, satisfiesAuth } from '../navigation/roles';
import { TakePaymentButton } from '../payments/TakePaymentButton';
import { useTerminals } from '../payments/useTerminals';
import { activeTerminalId, chooseActiveTerminal, useSessionUser } from '../session/sessionStore';
import { type SessionUser, terminalDeviceIds } from '../session/sessionUser';
import { formatCad } from './formatCad';
import { Logo } from './Logo';

/** Company name, email, CAD balance and the active payment terminal (seed section 1). */
export function SidebarHeader({ compact }: { compact: boolean }) {
  const [locale] = useLocaleState();
  const user = useSessionUser();
  if (!user) return null;
  if (compact) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
        <Logo size={36} />
      </Box>
    );
  }
  return (
    <Box
      component="section"
      aria-label={user.data.companyName}
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 0.5 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1 }}>
        <Logo size={36} />
        <Typography
          variant="subtitle1"
          component="p"
          data-testid="company-name"
          sx={{ fontWeight: 700, lineHeight: 1.2 }}
        >
          {/* Isolated: in Arabic a Latin name's final period stays at its end ("A.Ş."), not its start. */}
          <bdi>{user.data.companyName}</bdi>
        </Typography>
      </Box>
      <Typography
        variant="body2"
        data-testid="user-email"
        sx={{ opacity: 0.8, wordBreak: 'break-all' }}
      >
        {user.data.email}
      </Typography>
      {satisfiesAuth(authRoles.user, user.role) && <CompanyAccount user={user} locale={locale} />}
    </Box>
  );
}

/** A company's balance and terminals (the platform operator has neither). */
function CompanyAccount({ user, locale }: { user: SessionUser; locale: string }) {
  const translate = useTranslate();
  const terminals = terminalDeviceIds(user);
  // The names the company gave its terminals ("Front desk"); "Terminal 1" until they load.
  const { terminals: named } = useTerminals();
  const nameOf = (deviceId: string, index: number) =>
    named.find((terminal) => terminal.deviceId === deviceId)?.name ??
    translate('app.header.terminal', { slot: index + 1 });
  return (
    <>
      <Typography variant="body2" data-testid="balance">
        <Box component="span" sx={{ opacity: 0.8 }}>
          {translate('app.header.balance')}:{' '}
        </Box>
        <Box component="span" sx={{ fontWeight: 600 }} dir="ltr">
          {formatCad(user.data.fiatBalanceCad, locale)}
        </Box>
      </Typography>
      {terminals.length > 0 ? (
        <>
          <TextField
            select
            size="small"
            label={translate('app.header.active_terminal')}
            value={activeTerminalId(user)}
            onChange={(event) => chooseActiveTerminal(event.target.value)}
            // A name set in the other direction (an English name in Arabic) is cut at its end,
            // not its start, when it is too long for the sidebar.
            slotProps={{ select: { SelectDisplayProps: { dir: 'auto' } } }}
            sx={{
              mt: 1.5,
              '& .MuiInputBase-root, & .MuiInputLabel-root, & .MuiSelect-icon': {
                color: 'inherit',
              },
              '& fieldset': { borderColor: 'currentColor', opacity: 0.5 },
            }}
          >
            {terminals.map((deviceId, index) => (
              <MenuItem key={deviceId} value={deviceId}>
                <bdi>{nameOf(deviceId, index)}</bdi>
              </MenuItem>
            ))}
          </TextField>
          {/* Payments need a verified company, as the screens that list them. */}
          {user.data.verified === 1 && (
            <TakePaymentButton
              variant="outlined"
              labelled
              sx={{ mt: 1, color: 'inherit', borderColor: 'currentColor', alignSelf: 'flex-start' }}
            />
          )}
        </>
      ) : (
        <Typography variant="caption" sx={{ opacity: 0.7, mt: 1 }}>
          {translate('app.header.no_terminals')}
        </Typography>
      )}
    </>
  );
}
