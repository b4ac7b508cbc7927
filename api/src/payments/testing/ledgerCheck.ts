import { type EtransferEvent, type PaymentEvent, streamCategories } from '@issuer/events';
import { ledgerConsistency } from '@issuer/projections';
import type { AccountsHarness } from '../../auth/testing/accountsHarness';

type Harness = Pick<AccountsHarness, 'store' | 'pool' | 'deps' | 'settledHead'>;

export interface MoneyMoved {
  capturedCents: bigint;
  refundedCents: bigint;
  /** E-transfers deposited (requested or not) and payouts sent out (a failed one given back). */
  depositedCents: bigint;
  paidOutCents: bigint;
}

const nothingMoved = (): MoneyMoved => ({
  capturedCents: 0n,
  refundedCents: 0n,
  depositedCents: 0n,
  paidOutCents: 0n,
});

/**
 * After every test that moves money: each company's ledger balances (per entry, running balances,
 * stored totals) and its available balance equals captured − refunded (failed refunds excluded)
 * + deposited − paid out, counted from the Payment and ETransfer streams of the event store (the
 * truth), not from a read model. Reads the store incrementally, so
 * it is cheap to run after each test: `const ledger = ledgerCheck(); afterEach(() => ledger.verify(h));`
 */
export function ledgerCheck() {
  let after = -1n;
  const moved = new Map<string, MoneyMoved>();

  /** Counts the events up to `head`, the position the read models were awaited for. */
  async function readNewPaymentEvents(h: Harness, head: bigint) {
    for (;;) {
      const batch = (await h.store.readAll({ after, maxCount: 1000 })).filter(
        (event) => event.position <= head,
      );
      const last = batch.at(-1);
      if (!last) return;
      for (const event of batch) {
        if (event.streamId.startsWith(`${streamCategories.payment}-`)) {
          count(moved, event as unknown as PaymentEvent);
        } else if (event.streamId.startsWith(`${streamCategories.etransfer}-`)) {
          countEtransfer(moved, event as unknown as EtransferEvent);
        }
      }
      after = last.position;
    }
  }

  async function disagreements(h: Harness): Promise<string[]> {
    const { rows } = await h.pool.query<{ company_id: string }>(
      'SELECT DISTINCT company_id FROM ledger_lines UNION SELECT DISTINCT company_id FROM payments',
    );
    const companies = new Set([...moved.keys(), ...rows.map((row) => row.company_id)]);
    const failures: string[] = [];
    for (const companyId of companies) {
      const failure = await disagreement(h, companyId, moved.get(companyId));
      if (failure) failures.push(failure);
    }
    return failures;
  }

  return {
    /** What the events say each company captured and refunded, as of the last `verify`. */
    moved: (companyId: string) => moved.get(companyId) ?? nothingMoved(),

    /** Throws naming every company whose ledger disagrees, with its figures. */
    async verify(h: Harness | undefined): Promise<void> {
      if (!h) return;
      // Events and read models are compared at one position. A webhook the simulator's outbox
      // still delivers after the test moves the head: then compare again once it has settled.
      let failures: string[] = [];
      // The settled head: an event of this test committed behind another worker's open
      // transaction is not below the store's visible head yet, and must still be counted.
      for (let attempt = 0; attempt < 5; attempt++) {
        const head = await h.settledHead();
        if (head === undefined) return;
        if (!(await h.deps.readModels.waitFor(head, 10_000))) {
          throw new Error(`Ledger check: the read models did not reach position ${head} in 10 s`);
        }
        await readNewPaymentEvents(h, head);
        failures = await disagreements(h);
        if (failures.length === 0 || (await h.settledHead()) === head) break;
      }
      if (failures.length > 0) {
        throw new Error(`The ledger does not balance:\n${failures.join('\n')}`);
      }
    },
  };
}

/** A refund the processor refused (PaymentRefundFailed) no longer counts as refunded. */
function count(moved: Map<string, MoneyMoved>, event: PaymentEvent) {
  if (
    event.type !== 'PaymentCaptured' &&
    event.type !== 'PaymentRefunded' &&
    event.type !== 'PaymentRefundFailed'
  ) {
    return;
  }
  const totals = moved.get(event.data.companyId) ?? nothingMoved();
  const cents = BigInt(event.data.amountCents);
  if (event.type === 'PaymentCaptured') totals.capturedCents += cents;
  else if (event.type === 'PaymentRefunded') totals.refundedCents += cents;
  else totals.refundedCents -= cents;
  moved.set(event.data.companyId, totals);
}

function countEtransfer(moved: Map<string, MoneyMoved>, event: EtransferEvent) {
  const totals = moved.get(event.data.companyId) ?? nothingMoved();
  switch (event.type) {
    case 'EtransferDeposited':
    case 'IncomingEtransferReceived':
      totals.depositedCents += BigInt(event.data.amountCents);
      break;
    case 'PayoutRequested':
      totals.paidOutCents += BigInt(event.data.amountCents);
      break;
    case 'PayoutFailed':
      totals.paidOutCents -= BigInt(event.data.amountCents);
      break;
    default:
      return;
  }
  moved.set(event.data.companyId, totals);
}

async function disagreement(
  h: Harness,
  companyId: string,
  events: MoneyMoved = nothingMoved(),
): Promise<string | undefined> {
  const ledger = await ledgerConsistency(h.pool, companyId);
  const { rows } = await h.pool.query<{ debits: string; credits: string }>(
    `SELECT coalesce(sum(debit_cents), 0) AS debits, coalesce(sum(credit_cents), 0) AS credits
       FROM ledger_lines WHERE company_id = $1`,
    [companyId],
  );
  const debits = BigInt(rows[0]?.debits ?? 0);
  const credits = BigInt(rows[0]?.credits ?? 0);
  const expected =
    events.capturedCents - events.refundedCents + events.depositedCents - events.paidOutCents;
  const agrees =
    ledger.balanced &&
    debits === credits &&
    ledger.availableCents === expected &&
    ledger.capturedCents === events.capturedCents &&
    ledger.refundedCents === events.refundedCents &&
    ledger.depositedCents === events.depositedCents &&
    ledger.paidOutCents === events.paidOutCents;
  if (agrees) return undefined;
  return (
    `  company ${companyId}: ledgerConsistency.balanced=${ledger.balanced}, ` +
    `debits ${debits} vs credits ${credits}, available ${ledger.availableCents}; ` +
    `payments read model captured ${ledger.capturedCents} refunded ${ledger.refundedCents}; ` +
    `e-transfers deposited ${ledger.depositedCents} paid out ${ledger.paidOutCents}; ` +
    `events captured ${events.capturedCents} − refunded ${events.refundedCents} + deposited ` +
    `${events.depositedCents} − paid out ${events.paidOutCents} = ${expected}`
  );
}
