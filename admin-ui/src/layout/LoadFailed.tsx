import { Alert, AlertTitle, Button } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * What a screen says when its data could not load: what is missing, why (the API's message, or
 * that the server cannot be reached), and a button to try again.
 */
export function LoadFailed({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: Error | null;
  onRetry: () => unknown;
}) {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={() => void onRetry()}>
          {translate('app.errors.retry')}
        </Button>
      }
    >
      <AlertTitle>{title}</AlertTitle>
      {error?.message}
    </Alert>
  );
}
