import PointOfSale from '@mui/icons-material/PointOfSale';
import { Button as LabelledButton } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import { Button, useTranslate } from 'react-admin';
import { useCanTakePayments } from './access';

const TakePaymentDialog = lazy(() =>
  import('./TakePaymentDialog').then((module) => ({ default: module.TakePaymentDialog })),
);

/**
 * Opens Take a payment; nothing for a reader (compliance) who may not move money. In a toolbar
 * it is react-admin's button (an icon alone on a phone); `labelled` keeps the words everywhere.
 */
export function TakePaymentButton({
  variant = 'text',
  customerId,
  labelled = false,
  sx,
}: {
  variant?: 'text' | 'contained' | 'outlined';
  customerId?: string;
  labelled?: boolean;
  sx?: SxProps<Theme>;
}) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const allowed = useCanTakePayments();
  if (!allowed) return null;
  return (
    <>
      {labelled ? (
        <LabelledButton
          variant={variant}
          size="small"
          startIcon={<PointOfSale />}
          onClick={() => setOpen(true)}
          sx={sx}
        >
          {translate('app.payments.take')}
        </LabelledButton>
      ) : (
        <Button label="app.payments.take" variant={variant} onClick={() => setOpen(true)} sx={sx}>
          <PointOfSale />
        </Button>
      )}
      {open && (
        <Suspense fallback={null}>
          <TakePaymentDialog open onClose={() => setOpen(false)} customerId={customerId} />
        </Suspense>
      )}
    </>
  );
}
