import CreditCard from '@mui/icons-material/CreditCard';
import {
  Alert,
  Box,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocale, useNotify, useTranslate } from 'react-admin';
import { ConfirmButton } from '../layout/ConfirmButton';
import { useCanTakePayments } from '../payments/access';
import { cardLabel, customerCardsKey, fetchCustomerCards, removeCard } from './cardApi';

/**
 * The customer's saved cards, each removable by those who take payments (recorded as
 * CardRemoved, never silently); compliance reads.
 */
export function SavedCards({ customerId }: { customerId: string }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const canRemove = useCanTakePayments();
  const cards = useQuery({
    queryKey: customerCardsKey(customerId),
    queryFn: () => fetchCustomerCards(customerId),
  });
  const remove = useMutation({
    mutationFn: removeCard,
    onSuccess: () => {
      notify('app.cards.removed', { type: 'success' });
      return queryClient.invalidateQueries({ queryKey: customerCardsKey(customerId) });
    },
    onError: (error: Error) =>
      notify('app.cards.remove_failed', { type: 'error', messageArgs: { message: error.message } }),
  });
  return (
    <Box component="section" aria-labelledby="saved-cards-title" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3" id="saved-cards-title">
        {translate('app.cards.title')}
      </Typography>
      {cards.isPending && <LinearProgress aria-label={translate('app.cards.title')} />}
      {cards.error && (
        <Alert severity="error">
          {translate('app.cards.load_failed', { message: cards.error.message })}
        </Alert>
      )}
      {cards.data?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {translate('app.cards.empty')}
        </Typography>
      )}
      {cards.data && cards.data.length > 0 && (
        <List dense>
          {cards.data.map((card) => (
            <ListItem
              key={card.id}
              divider
              secondaryAction={
                canRemove && (
                  <ConfirmButton
                    size="small"
                    color="error"
                    confirmColor="warning"
                    disabled={remove.isPending}
                    title={translate('app.cards.remove_title', {
                      card: `\u2066${cardLabel(card)}\u2069`,
                    })}
                    content={translate('app.cards.remove_content')}
                    confirm={translate('app.cards.remove')}
                    onConfirm={() => remove.mutateAsync(card.id).catch(() => undefined)}
                  >
                    {translate('app.cards.remove')}
                  </ConfirmButton>
                )
              }
            >
              <CreditCard sx={{ mr: 1, color: 'text.secondary' }} aria-hidden />
              <ListItemText
                primary={<bdi dir="ltr">{cardLabel(card)}</bdi>}
                // Two cards alike (same brand, digits and expiry) are told apart by when saved.
                secondary={translate('app.cards.saved_on', {
                  date: new Date(card.savedAt).toLocaleDateString(locale),
                })}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
