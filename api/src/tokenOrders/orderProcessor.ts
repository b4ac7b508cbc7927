import {
  asEtransferEvent,
  asPaymentEvent,
  asTokenOrderEvent,
  DomainError,
  type InvestorStatus,
  type RecordedEvent,
  systemReason,
  type TokenOrderEvent,
} from '@issuer/events';
import type { Logger } from 'pino';
import { issueShares } from '../capTable/capTableCommands';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { investorTransitions } from '../customers/investorWorkflow';
import { runOnRound } from '../fundingRounds/roundCommands';
import { type AppDependencies, applyDdlOnce, foldStream } from '../http';
import { checkpointedPass } from '../http/checkpointedPass';
import { periodic } from '../http/periodic';
import { type CommandOrigin, runOnStream } from '../http/streamCommands';
import { derivedId, loadOrder, type OrderDeps, runOnOrder } from './orderCommands';
import type { TokenLedger } from './tokenLedger';

const checkpointName = 'tokenOrderProcessor';

const ddl = `
CREATE TABLE IF NOT EXISTS process_checkpoints (
  name text PRIMARY KEY,
  position bigint NOT NULL
);
INSERT INTO process_checkpoints (name, position) VALUES ('${checkpointName}', -1)
  ON CONFLICT (name) DO NOTHING;
CREATE TABLE IF NOT EXISTS token_order_payments (
  payment_id text PRIMARY KEY,
  order_id text NOT NULL
);
`;

export function migrateOrderProcessor(pool: AppDependencies['pool']): Promise<void> {
  return applyDdlOnce(pool, 'issuer-portal:migrate-token-order-processor', ddl);
}

export type ProcessorDeps = OrderDeps & Pick<AppDependencies, 'pool'> & { logger: Logger };

export interface OrderProcessor {
  /** Handles every event after the checkpoint; resolves with how many it acted on. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const paymentOutcomes = {
  PaymentCaptured: 'funds',
  PaymentDeclined: 'declined',
  PaymentExpired: 'expired',
  PaymentCancelled: 'cancelled',
  PaymentRefunded: 'refunded',
} as const;

/** An e-transfer order's request: deposited is its money, any other end a failed payment. */
const etransferOutcomes = {
  EtransferDeposited: 'funds',
  EtransferDeclined: 'declined',
  EtransferExpired: 'expired',
  EtransferCancelled: 'cancelled',
} as const;

/**
 * The process manager of token orders, read from the global log after its own checkpoint (as
 * the billing collector is): it remembers each order's payment (a terminal payment or an
 * e-transfer request, in `token_order_payments` by either id), turns the payment's end into
 * the order's next step, and drives the order on — the round's sale or release, distribution
 * through the TokenLedger (retried, then held), the cap-table issuance (its id derived from the
 * order), and the customer's investor status (actor `system`, the order as the reason, only where
 * the workflow allows the move). Every step is idempotent, so a crash replays it harmlessly.
 */
export function createOrderProcessor(
  deps: ProcessorDeps,
  ledger: TokenLedger,
  { intervalMs = 500, batchSize = 500 } = {},
): OrderProcessor {
  const system = { actorId: 'system' };

  async function moveInvestor(
    order: { companyId: string; customerId: string; orderId: string },
    to: InvestorStatus,
    origin: CommandOrigin,
  ) {
    // Idempotent by cause: a replay of the event that moved the customer moves them no more
    // (a refunded investor must not go back to Funds Received when the log is read again).
    const history = await deps.store.readStream(customerStream(order.customerId));
    const done = history.some(
      (event) =>
        event.type === 'InvestorStatusChanged' &&
        event.metadata.causationId === origin.causationId &&
        (event.data as { to?: string }).to === to,
    );
    if (done) return;
    // The process only moves an investor on (or into Refunded), never back: a late or replayed
    // step finds them further along and leaves them there.
    const { state } = await foldStream(
      deps.store,
      customerStream(order.customerId),
      customerDecider,
    );
    if (state.status !== 'active') return;
    const kind = investorTransitions[state.investorStatus][to];
    if (kind === undefined || kind === 'reversal') {
      deps.logger.info(
        { orderId: order.orderId, from: state.investorStatus, to },
        'token order: investor status not moved',
      );
      return;
    }
    try {
      await runOnStream(
        deps,
        customerStream(order.customerId),
        customerDecider,
        {
          type: 'ChangeInvestorStatus',
          data: {
            companyId: order.companyId,
            to,
            reason: systemReason('tokenOrder', order.orderId),
            evidence: null,
            actorId: 'system',
            now: deps.clock(),
          },
        },
        (state) => (state.status === 'active' ? state.companyId : undefined),
        origin,
      );
    } catch (error) {
      // The workflow does not allow the move from the customer's status: the order goes on.
      if (!(error instanceof DomainError)) throw error;
      deps.logger.info(
        { orderId: order.orderId, to, reason: error.message },
        'token order: investor status not moved',
      );
    }
  }

  /** The order a payment or e-transfer pays for, if it pays for one. */
  async function orderPaidBy(paymentId: string): Promise<string | undefined> {
    const { rows } = await deps.pool.query<{ order_id: string }>(
      'SELECT order_id FROM token_order_payments WHERE payment_id = $1',
      [paymentId],
    );
    return rows[0]?.order_id;
  }

  /** Funds in (with their amount) or the payment failed (with why): the order records it. */
  function recordPaymentOutcome(
    orderId: string,
    outcome: string,
    data: object,
    origin: CommandOrigin,
  ) {
    const now = deps.clock();
    const amountCents = 'amountCents' in data ? (data.amountCents as number) : 0;
    return runOnOrder(
      deps,
      orderId,
      outcome === 'funds'
        ? { type: 'RecordFundsReceived', data: { now, amountCents } }
        : { type: 'RecordPaymentFailed', data: { now, reason: outcome } },
      origin,
    );
  }

  async function onPayment(event: RecordedEvent, origin: CommandOrigin) {
    const payment = asPaymentEvent(event);
    if (!payment || !Object.hasOwn(paymentOutcomes, payment.type)) return false;
    const orderId = await orderPaidBy(payment.data.paymentId);
    if (!orderId) return false;
    const outcome = paymentOutcomes[payment.type as keyof typeof paymentOutcomes];
    if (outcome === 'refunded' && payment.type === 'PaymentRefunded') {
      const { refundId, amountCents } = payment.data;
      await runOnOrder(
        deps,
        orderId,
        { type: 'RecordRefund', data: { now: deps.clock(), refundId, amountCents } },
        origin,
      );
    } else {
      await recordPaymentOutcome(orderId, outcome, payment.data, origin);
    }
    return true;
  }

  async function onEtransfer(event: RecordedEvent, origin: CommandOrigin) {
    const etransfer = asEtransferEvent(event);
    if (!etransfer || !Object.hasOwn(etransferOutcomes, etransfer.type)) return false;
    const orderId = await orderPaidBy(etransfer.data.etransferId);
    if (!orderId) return false;
    const outcome = etransferOutcomes[etransfer.type as keyof typeof etransferOutcomes];
    await recordPaymentOutcome(orderId, outcome, etransfer.data, origin);
    return true;
  }

  async function release(event: TokenOrderEvent, reason: string, origin: CommandOrigin) {
    const order = await loadOrder(deps, event.data.orderId);
    if (!order) return;
    await runOnRound(
      deps,
      { companyId: order.companyId, ...system, ...origin },
      {
        type: 'ReleaseTokens',
        data: {
          companyId: order.companyId,
          roundId: order.roundId,
          ...system,
          orderId: order.orderId,
          reason,
          now: deps.clock(),
        },
      },
    );
    return order;
  }

  async function distribute(orderId: string, attempt: number, origin: CommandOrigin) {
    const order = await loadOrder(deps, orderId);
    if (order?.status !== 'distributing' || order.attempts !== attempt) return;
    try {
      const tx = await ledger.distribute({
        orderId,
        companyId: order.companyId,
        roundId: order.roundId,
        walletAddress: order.walletAddress,
        tokens: order.tokens,
      });
      await runOnOrder(
        deps,
        orderId,
        { type: 'RecordTokensDistributed', data: { ...tx, now: deps.clock() } },
        origin,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ orderId, attempt, err: error }, 'token distribution failed');
      await runOnOrder(
        deps,
        orderId,
        { type: 'RecordDistributionFailed', data: { attempt, error: message, now: deps.clock() } },
        origin,
      );
    }
  }

  async function onOrder(event: RecordedEvent, origin: CommandOrigin) {
    const orderEvent = asTokenOrderEvent(event);
    if (!orderEvent) return false;
    const { orderId } = orderEvent.data;
    const now = deps.clock();
    switch (orderEvent.type) {
      case 'TokenOrderPlaced': {
        // The order's money by its id: the terminal payment's, or the e-transfer request's.
        const moneyId = orderEvent.data.paymentId ?? orderEvent.data.etransferId;
        if (moneyId) {
          await deps.pool.query(
            `INSERT INTO token_order_payments (payment_id, order_id) VALUES ($1, $2)
             ON CONFLICT (payment_id) DO NOTHING`,
            [moneyId, orderId],
          );
        }
        return true;
      }
      case 'TokenOrderFundsReceived': {
        const order = await loadOrder(deps, orderId);
        if (!order) return true;
        await runOnRound(
          deps,
          { companyId: order.companyId, ...system, ...origin },
          {
            type: 'SellTokens',
            data: { companyId: order.companyId, roundId: order.roundId, ...system, orderId, now },
          },
        );
        await moveInvestor(order, 'Funds Received', origin);
        await runOnOrder(
          deps,
          orderId,
          { type: 'StartDistribution', data: { attempt: 1, now } },
          origin,
        );
        return true;
      }
      case 'TokenOrderDistributionStarted': {
        const order = await loadOrder(deps, orderId);
        if (!order) return true;
        await moveInvestor(order, 'Distribute Tokens', origin);
        await distribute(orderId, orderEvent.data.attempt, origin);
        return true;
      }
      case 'TokenOrderDistributionFailed':
        if (!orderEvent.data.held) {
          await runOnOrder(
            deps,
            orderId,
            { type: 'StartDistribution', data: { attempt: orderEvent.data.attempt + 1, now } },
            origin,
          );
        }
        return true;
      case 'TokenOrderTokensDistributed': {
        const order = await loadOrder(deps, orderId);
        if (!order) return true;
        const issuanceId = derivedId('iss', orderId);
        await issueShares(deps, {
          companyId: order.companyId,
          ...system,
          ...origin,
          issuanceId,
          shareClassId: order.shareClassId,
          customerId: order.customerId,
          shares: order.tokens,
          reason: systemReason('tokenOrder', orderId),
        });
        await runOnOrder(
          deps,
          orderId,
          { type: 'CompleteOrder', data: { issuanceId, now } },
          origin,
        );
        await moveInvestor(order, 'Complete', origin);
        return true;
      }
      case 'TokenOrderPaymentFailed':
        await release(orderEvent, 'payment_failed', origin);
        return true;
      case 'TokenOrderCancelled':
        await release(orderEvent, 'cancelled', origin);
        return true;
      case 'TokenOrderRefunded': {
        const order = await release(orderEvent, 'refunded', origin);
        if (order) await moveInvestor(order, 'Refunded', origin);
        return true;
      }
      default:
        return false;
    }
  }

  async function handle(event: RecordedEvent): Promise<boolean> {
    const origin = { causationId: event.id, correlationId: event.metadata.correlationId };
    try {
      return (
        (await onOrder(event, origin)) ||
        (await onPayment(event, origin)) ||
        (await onEtransfer(event, origin))
      );
    } catch (error) {
      // A rule refused the step (a class with too few shares left, a customer removed): logged,
      // and the log moves on; the order stays where it is for a person to see.
      if (!(error instanceof DomainError)) throw error;
      deps.logger.warn({ err: error, eventId: event.id }, 'token order step refused');
      return true;
    }
  }

  const runOnce = () =>
    checkpointedPass(deps, checkpointName, batchSize, async (events) => {
      let handled = 0;
      for (const event of events) if (await handle(event)) handled += 1;
      return handled;
    });

  return {
    runOnce,
    ...periodic(runOnce, { intervalMs, logger: deps.logger, label: 'token order processor' }),
  };
}
