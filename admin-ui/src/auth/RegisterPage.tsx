import { fieldLimits } from '@issuer/events/rules';
import { Box, Button, Typography } from '@mui/material';
import { Form, PasswordInput, TextInput, useNotify, useTranslate } from 'react-admin';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { type RegistrationForm, register } from '../session/authProvider';
import { useSessionUser } from '../session/sessionStore';
import { GuestLayout } from './GuestLayout';
import { SubmitButton } from './SubmitButton';
import { formErrorsOrToast } from './submitErrors';
import {
  validateCompanyName,
  validateCompanySymbol,
  validateConfirmation,
  validateEmail,
  validatePassword,
} from './validators';

const symbolLimits = { min: fieldLimits.symbolMin, max: fieldLimits.symbolMax };

export default function RegisterPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const user = useSessionUser();
  if (user) return <Navigate to="/" replace />;

  const submit = async (values: Record<string, unknown>) => {
    const { companyName, companySymbol, email, password } = values as unknown as RegistrationForm;
    // A new company lands on its profile: its code loads while the server registers.
    void import('../profile/ProfilePage');
    try {
      await register({ companyName, companySymbol, email, password });
      navigate('/');
      return undefined;
    } catch (error) {
      return formErrorsOrToast(error, (message) => notify(message, { type: 'error' }));
    }
  };

  return (
    <GuestLayout heading="app.auth.register_welcome" intro="app.auth.register_promo">
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('app.auth.register_title')}
      </Typography>
      <Form
        onSubmit={submit}
        mode="onChange"
        reValidateMode="onChange"
        noValidate
        // The field says what is wrong; a toast saying the form is invalid would cover the button.
        disableInvalidFormNotification
      >
        <TextInput
          source="companyName"
          label="app.auth.fields.companyName"
          autoComplete="organization"
          validate={validateCompanyName}
          fullWidth
        />
        <TextInput
          source="companySymbol"
          label="app.auth.fields.companySymbol"
          autoComplete="off"
          validate={validateCompanySymbol}
          helperText={translate('app.validation.symbol_help', symbolLimits)}
          fullWidth
        />
        <TextInput
          source="email"
          type="email"
          label="app.auth.fields.email"
          autoComplete="email"
          validate={validateEmail}
          fullWidth
        />
        <PasswordInput
          source="password"
          label="app.auth.fields.password"
          autoComplete="new-password"
          validate={validatePassword}
          helperText={translate('app.validation.password_help', { min: fieldLimits.passwordMin })}
          fullWidth
        />
        <PasswordInput
          source="confirm"
          label="app.auth.fields.confirm"
          autoComplete="new-password"
          validate={validateConfirmation}
          fullWidth
        />
        <SubmitButton label="app.auth.register_submit" />
      </Form>
      <Box sx={{ mt: 3, display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1 }}>
        <Typography variant="body2">{translate('app.auth.have_account')}</Typography>
        <Button component={Link} to="/login" size="small">
          {translate('app.auth.login_link')}
        </Button>
      </Box>
    </GuestLayout>
  );
}
