import { Alert, Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import {
  Form,
  HttpError,
  PasswordInput,
  TextInput,
  useLogin,
  useNotify,
  useTranslate,
} from 'react-admin';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { supportEmail } from '../config';
import type { Credentials } from '../session/authProvider';
import { errorCode } from '../session/http';
import { useSessionUser } from '../session/sessionStore';
import { GuestLayout } from './GuestLayout';
import { nextPath } from './nextPath';
import { SubmitButton } from './SubmitButton';
import { formErrorsOrToast } from './submitErrors';
import { validateEmailForLogin, validateLoginPassword } from './validators';

/**
 * A refusal the page says in one sentence of the reader's language: an unknown email or a wrong
 * password (alike), or a company the platform operator suspended.
 */
function refusalOf(error: unknown) {
  if (errorCode(error) === 'company_suspended') return 'app.validation.company_suspended';
  if (error instanceof HttpError && error.status === 401) return 'app.validation.wrong_credentials';
  return undefined;
}

export default function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const user = useSessionUser();
  const next = nextPath(useLocation().state);
  const [refusal, setRefusal] = useState<string>();
  if (user) return <Navigate to={next ?? '/'} replace />;

  const submit = async (values: Record<string, unknown>) => {
    setRefusal(undefined);
    try {
      // `/` sends a verified company to /customers and an unverified one to /profile.
      await login(values as unknown as Credentials, next ?? '/');
      return undefined;
    } catch (error) {
      // One clear message, not a field message twice and a "form is not valid" toast beside it.
      const refused = refusalOf(error);
      if (refused) {
        setRefusal(refused);
        return undefined;
      }
      return formErrorsOrToast(error, (message) => notify(message, { type: 'error' }));
    }
  };

  return (
    <GuestLayout heading="app.auth.login_welcome" intro="app.auth.login_intro">
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('app.auth.login_title')}
      </Typography>
      <Form
        onSubmit={submit}
        mode="onChange"
        reValidateMode="onChange"
        noValidate
        disableInvalidFormNotification
      >
        {refusal && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {translate(refusal)}
          </Alert>
        )}
        <TextInput
          source="email"
          type="email"
          label="app.auth.fields.email"
          autoComplete="email"
          validate={validateEmailForLogin}
          fullWidth
        />
        <PasswordInput
          source="password"
          label="app.auth.fields.password"
          autoComplete="current-password"
          validate={validateLoginPassword}
          fullWidth
        />
        <SubmitButton label="app.auth.login_submit" />
      </Form>
      <Box sx={{ mt: 3, display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'stretch' }}>
        <Button component={Link} to="/register" variant="outlined" fullWidth>
          {translate('app.auth.register_account')}
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
          {translate('app.auth.forgot_password', { email: supportEmail() })}
        </Typography>
      </Box>
    </GuestLayout>
  );
}
