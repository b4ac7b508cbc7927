/** `/transactions/:view`: the fixed filter of each view (all, payments, refunds). */
export const transactionViews = {
  all: {},
  payments: { kind: 'payment' },
  refunds: { kind: 'refund' },
} as const satisfies Record<string, Record<string, string>>;

export type TransactionView = keyof typeof transactionViews;

export function isTransactionView(view: string | undefined): view is TransactionView {
  return view !== undefined && Object.hasOwn(transactionViews, view);
}
