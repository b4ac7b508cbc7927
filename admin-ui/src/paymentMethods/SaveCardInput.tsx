import { Checkbox, FormControlLabel, FormHelperText } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useController, useWatch } from 'react-hook-form';

/**
 * "Save the card for future charges", as Stripe's setup_future_usage: offered only once a
 * customer is chosen (a card is saved on a customer, with their agreement).
 */
export function SaveCardInput() {
  const translate = useTranslate();
  const customerId = useWatch({ name: 'customerId' }) as string | null | undefined;
  const { field } = useController({ name: 'saveCard', defaultValue: false });
  if (!customerId) return null;
  return (
    <div>
      <FormControlLabel
        control={
          <Checkbox
            checked={field.value === true}
            onChange={(event) => field.onChange(event.target.checked)}
            name={field.name}
          />
        }
        label={translate('app.cards.save_card')}
      />
      <FormHelperText sx={{ mt: -0.5, mx: 0 }}>
        {translate('app.cards.save_card_help')}
      </FormHelperText>
    </div>
  );
}
