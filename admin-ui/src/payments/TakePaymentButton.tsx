import PointOfSale from '@mui/icons-material/PointOfSale';
import type { SxProps, Theme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import { Button } from 'react-admin';
import { useCanTakePayments } from './access';

const TakePaymentDialog = lazy(() =>
  import('./TakePaymentDialog').then((module) => ({ default: module.TakePaymentDialog })),
);

/** Opens Take a payment; nothing for a reader (compliance) who may not move money. */
export function TakePaymentButton({
  variant = 'text',
  customerId,
  sx,
}: {
  variant?: 'text' | 'contained' | 'outlined';
  customerId?: string;
  sx?: SxProps<Theme>;
}) {
  const [open, setOpen] = useState(false);
  const allowed = useCanTakePayments();
  if (!allowed) return null;
  return (
    <>
      <Button label="app.payments.take" variant={variant} onClick={() => setOpen(true)} sx={sx}>
        <PointOfSale />
      </Button>
      {open && (
        <Suspense fallback={null}>
          <TakePaymentDialog open onClose={() => setOpen(false)} customerId={customerId} />
        </Suspense>
      )}
    </>
  );
}
