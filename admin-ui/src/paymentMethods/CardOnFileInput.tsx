import { Alert, LinearProgress } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { RadioButtonGroupInput, SelectInput, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { cardLabel, customerCardsKey, fetchCustomerCards } from './cardApi';

const methods = [
  { id: 'etransfer', name: 'app.cards.method_etransfer' },
  { id: 'card', name: 'app.cards.method_card' },
];

/**
 * The subscription's collection method: an e-transfer request each period, or the customer's
 * card on file (one of their saved cards; the newest is preselected, and an honest hint when
 * they have none).
 */
export function CollectionMethodInput() {
  const method = useWatch({ name: 'collectionMethod' }) as string | undefined;
  return (
    <>
      <RadioButtonGroupInput
        source="collectionMethod"
        label="app.cards.collection_method"
        choices={methods}
        helperText={false}
        row={false}
      />
      {method === 'card' && <SavedCardSelect />}
    </>
  );
}

function SavedCardSelect() {
  const translate = useTranslate();
  const customerId = useWatch({ name: 'customerId' }) as string | null | undefined;
  const cards = useQuery({
    queryKey: customerCardsKey(customerId ?? ''),
    queryFn: () => fetchCustomerCards(customerId ?? ''),
    enabled: Boolean(customerId),
  });
  // Another customer chosen: their newest card, never the previous customer's.
  const { getValues, setValue } = useFormContext();
  useEffect(() => {
    if (!cards.data) return;
    const chosen = getValues('paymentMethodId') as string | null | undefined;
    if (!cards.data.some((card) => card.id === chosen)) {
      setValue('paymentMethodId', cards.data[0]?.id ?? null);
    }
  }, [cards.data, getValues, setValue]);
  if (!customerId) return <Alert severity="info">{translate('app.cards.choose_customer')}</Alert>;
  if (cards.isPending) return <LinearProgress aria-label={translate('app.cards.card')} />;
  if (cards.error) {
    return (
      <Alert severity="error">
        {translate('app.cards.load_failed', { message: cards.error.message })}
      </Alert>
    );
  }
  if (cards.data.length === 0) return <Alert severity="info">{translate('app.cards.none')}</Alert>;
  return (
    <SelectInput
      source="paymentMethodId"
      label="app.cards.card"
      choices={cards.data.map((card) => ({ id: card.id, name: cardLabel(card) }))}
      translateChoice={false}
      helperText={false}
    />
  );
}
