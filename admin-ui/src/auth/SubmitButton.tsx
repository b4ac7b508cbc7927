import { Button, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';

/** Disabled until every rule of the form holds (seed section 4), and while submitting. */
export function SubmitButton({ label }: { label: string }) {
  const translate = useTranslate();
  const { isValid, isSubmitting } = useFormState();
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      fullWidth
      disabled={!isValid || isSubmitting}
      startIcon={
        isSubmitting ? (
          <CircularProgress size={18} color="inherit" aria-label={translate('ra.page.loading')} />
        ) : undefined
      }
      sx={{ mt: 1 }}
    >
      {translate(label)}
    </Button>
  );
}
