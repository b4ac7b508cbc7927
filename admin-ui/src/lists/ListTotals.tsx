import { Alert, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';

/**
 * Above a list: how many rows match (`<messages>.totals`), or why the list could not load
 * (`<messages>.load_failed`); nothing while loading or when nothing matches (the empty state says so).
 */
export function ListTotals({ messages, testId }: { messages: string; testId: string }) {
  const translate = useTranslate();
  const { total, error, isPending } = useListContext();
  if (error) {
    return (
      <Alert severity="error" sx={{ m: 1 }}>
        {translate(`${messages}.load_failed`, { message: (error as Error).message })}
      </Alert>
    );
  }
  if (isPending || !total) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }} data-testid={testId}>
      {translate(`${messages}.totals`, { count: total.toLocaleString() })}
    </Typography>
  );
}
