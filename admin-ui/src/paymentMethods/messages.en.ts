/** Saved cards' texts in English (`app.cards`). */
export const cardsEnglish = {
  save_card: 'Save the card for future charges (the customer agreed)',
  save_card_help: 'Subscriptions can then charge it without the card present.',
  collection_method: 'Collection method',
  method_etransfer: 'E-transfer request each period',
  method_card: 'Card on file',
  card: 'Saved card',
  none: 'This customer has no saved card yet. Take a payment with “Save the card” ticked, then subscribe by card.',
  choose_customer: 'Choose a customer to see their saved cards.',
  load_failed: 'The saved cards could not be loaded: %{message}',
  title: 'Saved cards',
  empty: 'No saved cards',
  remove: 'Remove card',
  remove_title: 'Remove %{card}?',
  remove_content:
    'Subscriptions that charge this card stop collecting from it; choose another card or e-transfers for them. This cannot be undone.',
  saved_on: 'Saved %{date}',
  removed: 'Card removed',
  off_session: 'Card on file (charged off-session)',
  invoice_charged: 'Charged to the saved card, payment',
  remove_failed: 'The card could not be removed: %{message}',
};
