import { randomUUID } from 'node:crypto';
import { ledgerConsistency } from '@issuer/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../http/testing/responses';
import { recordGatewayEvent } from './paymentCommands';
import type { PaymentResource } from './paymentView';
import { testCards } from './simulator/testCards';
import { type SimulatorHarness, startSimulatorHarness } from './simulator/testing/simulatorHarness';
import { ledgerCheck } from './testing/ledgerCheck';
import { type SeededRandom, seededRandom, seedFromEnv } from './testing/seededRandom';

/**
 * Random sequences of payments, cards presented to the terminal simulator (approved, declined, or
 * approved with every refund refused; its signed webhooks sometimes duplicated or reordered),
 * cancels, expiries by the scheduler, late and repeated processor reports and refunds (partial,
 * full, too large, concurrent), through the HTTP API against a model kept here; after each
 * sequence the ledger balances and the balance, the transactions' net total and every payment
 * agree with the model.
 * A failure names the seed: MONEY_PROPERTY_SEED=<seed> replays it.
 */
const seed = seedFromEnv('MONEY_PROPERTY_SEED');
const sequences = Number(process.env.MONEY_PROPERTY_SEQUENCES ?? 8);
const stepsPerSequence = 40;
const maxCents = 99_999_999;
/**
 * A short payment timeout: tokens (the operator's too) live an hour on the harness's clock, which
 * each expiry moves on.
 */
const timeoutSeconds = 5;
const maxExpiriesPerSequence = 6;

type Status = 'pending' | 'captured' | 'declined' | 'cancelled' | 'expired';
interface ModelPayment {
  id: string;
  amountCents: number;
  status: Status;
  refundedCents: number;
  declineReason: string | null;
  /** The processor refuses every refund of it (the card's rule), with this reason. */
  refundFailure: string | null;
}

const cards = Object.entries(testCards);
const approving = cards.filter(([, card]) => !card.declines).map(([number]) => number);
const declining = cards.filter(([, card]) => card.declines);

let h: SimulatorHarness;
/** Payments earlier sequences left waiting. */
const leftPending = new Set<string>();
const ledger = ledgerCheck();
beforeAll(async () => {
  const webhooks = seededRandom(seed ^ 0x5eed);
  h = await startSimulatorHarness({
    duplicateRate: 0.25,
    reorder: seed % 2 === 0,
    random: webhooks.next,
  });
  h.deps.config = { ...h.deps.config, paymentTimeoutSeconds: timeoutSeconds };
});
afterAll(() => h.close());

/** One sequence: its own company, terminal and model. */
class Sequence {
  readonly payments: ModelPayment[] = [];
  readonly trace: string[] = [];
  /** Refunds recorded (accepted, or refused by the processor): each is a row of the transactions list. */
  refunds = 0;
  expiries = 0;

  constructor(
    readonly random: SeededRandom,
    readonly company: Awaited<ReturnType<SimulatorHarness['companyWithTerminal']>>,
  ) {}

  get capturedCents() {
    return sum(this.payments.filter((p) => p.status === 'captured').map((p) => p.amountCents));
  }
  get refundedCents() {
    return sum(this.payments.map((p) => p.refundedCents));
  }

  with(...statuses: Status[]) {
    return this.payments.filter((p) => statuses.includes(p.status));
  }
  refundable() {
    return this.with('captured').filter((p) => p.refundedCents < p.amountCents);
  }

  send(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return h.call('POST', path, { token: this.company.token, body, headers });
  }
  presentCard(payment: ModelPayment, card: string | undefined) {
    return this.send(`/api/terminals/${this.company.terminalId}/simulator/present-card`, {
      paymentId: payment.id,
      ...(card ? { card } : {}),
    });
  }
  refund(
    payment: ModelPayment,
    amountCents: number,
    idempotencyKey?: string,
    reason = `property ${randomUUID().slice(0, 8)}`,
  ) {
    return this.send(
      `/api/payments/${payment.id}/refunds`,
      { amountCents, reason },
      idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
    );
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

function drawAmount(random: SeededRandom): number {
  const kind = random.int(0, 9);
  if (kind === 0) return 1;
  if (kind === 1) return maxCents;
  if (kind === 2) return random.int(maxCents - 1_000, maxCents);
  if (kind <= 5) return random.int(1, 10_000);
  return random.int(1, maxCents);
}

/** Each operation applies itself to the app and the model, and checks the app's answer. */
type Operation = (s: Sequence) => Promise<string | undefined>;

const operations: Record<string, { weight: number; run: Operation }> = {
  pay: {
    weight: 6,
    async run(s) {
      const amountCents = drawAmount(s.random);
      const res = await s.send('/api/payments', {
        terminalId: s.company.terminalId,
        amountCents,
        currency: 'CAD',
      });
      expect(res.status).toBe(201);
      const payment = await jsonOf<PaymentResource>(res);
      expect(payment).toMatchObject({ status: 'pending', amountCents, refundedCents: 0 });
      s.payments.push({
        id: payment.id,
        amountCents,
        status: 'pending',
        refundedCents: 0,
        declineReason: null,
        refundFailure: null,
      });
      return `pay ${amountCents} → ${payment.id}`;
    },
  },
  approve: {
    weight: 5,
    async run(s) {
      const payment = pickOf(s, s.with('pending'));
      if (!payment) return undefined;
      const card = s.random.chance(0.3) ? undefined : s.random.pick(approving);
      const res = await s.presentCard(payment, card);
      expect(res.status).toBe(202);
      expect(await jsonOf(res)).toEqual({ paymentId: payment.id });
      await h.deliver();
      payment.status = 'captured';
      payment.refundFailure = (card && testCards[card]?.refundFails) ?? null;
      return `card ${card ?? 'default'} approves ${payment.id}`;
    },
  },
  decline: {
    weight: 2,
    async run(s) {
      const payment = pickOf(s, s.with('pending'));
      if (!payment) return undefined;
      const [card, { declines }] = s.random.pick(declining);
      const res = await s.presentCard(payment, card);
      expect(res.status).toBe(202);
      await h.deliver();
      payment.status = 'declined';
      payment.declineReason = declines ?? null;
      return `card ${card} declines ${payment.id} (${declines})`;
    },
  },
  /** The terminal has nothing waiting for a payment that is no longer pending. */
  cardTooLate: {
    weight: 1,
    async run(s) {
      const payment = pickOf(s, s.with('captured', 'declined', 'cancelled', 'expired'));
      if (!payment) return undefined;
      expect((await s.presentCard(payment, undefined)).status).toBe(409);
      return `card for ${payment.status} ${payment.id} → 409`;
    },
  },
  /**
   * The card is taken just before the cancel reaches the terminal: the cancel is answered (the
   * webhook is not in yet), then the capture arrives and is recorded, since the money moved.
   */
  lateCapture: {
    weight: 1,
    async run(s) {
      const payment = pickOf(s, s.with('pending'));
      if (!payment) return undefined;
      expect((await s.presentCard(payment, undefined)).status).toBe(202);
      const cancel = await s.send(`/api/payments/${payment.id}/cancel`);
      expect(cancel.status).toBe(200);
      expect((await jsonOf<PaymentResource>(cancel)).status).toBe('cancelled');
      await h.deliver();
      payment.status = 'captured';
      return `late capture after cancel ${payment.id}`;
    },
  },
  /** A repeated report (new event ids) of a decided payment changes nothing. */
  repeatedCapture: {
    weight: 1,
    async run(s) {
      const payment = pickOf(s, s.with('captured', 'declined'));
      if (!payment) return undefined;
      await reportCapture(payment);
      return `repeated capture of ${payment.status} ${payment.id}`;
    },
  },
  cancel: {
    weight: 2,
    async run(s) {
      const payment = pickOf(s, s.payments);
      if (!payment) return undefined;
      const res = await s.send(`/api/payments/${payment.id}/cancel`);
      if (payment.status === 'pending') {
        expect(res.status).toBe(200);
        expect((await jsonOf<PaymentResource>(res)).status).toBe('cancelled');
        payment.status = 'cancelled';
      } else {
        expect(res.status).toBe(409);
      }
      return `cancel ${payment.status} ${payment.id} → ${res.status}`;
    },
  },
  /** Not before its time; then the clock passes the timeout and the scheduler expires them. */
  expire: {
    weight: 1,
    async run(s) {
      const pending = s.with('pending');
      if (pending.length === 0 || s.expiries >= maxExpiriesPerSequence) return undefined;
      expect((await h.scheduler.runOnce()).expired).toEqual([]);
      s.expiries += 1;
      h.advanceClock(timeoutSeconds * 1000);
      const { expired } = await h.scheduler.runOnce();
      // The scheduler serves every company: earlier sequences' pending payments expire too.
      const ours = expired.filter((id) => !leftPending.delete(id));
      expect(new Set(ours)).toEqual(new Set(pending.map((payment) => payment.id)));
      for (const payment of pending) payment.status = 'expired';
      return `clock +${timeoutSeconds} s, expired ${ours.length}`;
    },
  },
  partialRefund: {
    weight: 3,
    async run(s) {
      const payment = pickOf(s, s.refundable());
      if (!payment) return undefined;
      const remaining = payment.amountCents - payment.refundedCents;
      const amountCents = s.random.chance(0.2) ? 1 : s.random.int(1, remaining);
      return refundAccepted(s, payment, amountCents);
    },
  },
  fullRefund: {
    weight: 2,
    async run(s) {
      const payment = pickOf(s, s.refundable());
      if (!payment) return undefined;
      return refundAccepted(s, payment, payment.amountCents - payment.refundedCents);
    },
  },
  overRefund: {
    weight: 2,
    async run(s) {
      const payment = pickOf(s, s.with('captured'));
      if (!payment) return undefined;
      const remaining = payment.amountCents - payment.refundedCents;
      if (remaining >= maxCents) return undefined;
      // Half the time one cent too many: the boundary is where a rule slips.
      const over = s.random.chance(0.5) ? 1 : s.random.int(1, maxCents - remaining);
      const amountCents = remaining + over;
      const res = await s.refund(payment, amountCents);
      expect(res.status).toBe(409);
      const error = await errorOf(res);
      expect(error.message).toContain(`(${remaining} cents)`);
      expect(error.fields).toHaveProperty('amountCents');
      return `over-refund ${amountCents} of ${remaining} left on ${payment.id} → 409`;
    },
  },
  refundNotCaptured: {
    weight: 1,
    async run(s) {
      const payment = pickOf(s, s.with('pending', 'declined', 'cancelled', 'expired'));
      if (!payment) return undefined;
      const res = await s.refund(payment, s.random.int(1, payment.amountCents));
      expect(res.status).toBe(409);
      return `refund of ${payment.status} ${payment.id} → 409`;
    },
  },
  concurrentRefunds: {
    weight: 2,
    async run(s) {
      const payment = pickOf(s, s.refundable());
      if (!payment) return undefined;
      const remaining = payment.amountCents - payment.refundedCents;
      const amounts = Array.from({ length: s.random.int(2, 5) }, () =>
        s.random.chance(0.3) ? remaining : s.random.int(Math.ceil(remaining / 3), remaining),
      );
      const answers = await Promise.all(amounts.map((amount) => s.refund(payment, amount)));
      if (payment.refundFailure) return concurrentRefusals(s, payment, amounts, answers);
      const accepted = amounts.filter((_, i) => answers[i]?.status === 201);
      const refused = amounts.filter((_, i) => answers[i]?.status === 409);
      expect(accepted.length + refused.length, 'each answer 201 or 409').toBe(amounts.length);
      expect(accepted.length, 'at least one refund goes through').toBeGreaterThan(0);
      const total = sum(accepted);
      expect(total).toBeLessThanOrEqual(remaining);
      // A refusal is only right if what it asked no longer fitted once the others went through.
      for (const amount of refused) expect(amount).toBeGreaterThan(remaining - total);
      payment.refundedCents += total;
      s.refunds += accepted.length;
      return `concurrent refunds [${amounts.join(', ')}] of ${remaining} on ${payment.id} → accepted [${accepted.join(', ')}]`;
    },
  },
};

async function reportCapture(payment: ModelPayment) {
  const base = {
    paymentId: payment.id,
    gatewayPaymentId: `gw_${payment.id}`,
    occurredAt: h.deps.clock().toISOString(),
    amountCents: payment.amountCents,
    cardBrand: 'visa',
    cardLast4: '4242',
  };
  await recordGatewayEvent(h.deps, { ...base, id: randomUUID(), type: 'payment.authorized' });
  await recordGatewayEvent(h.deps, { ...base, id: randomUUID(), type: 'payment.captured' });
}

function pickOf<T>(s: Sequence, items: T[]): T | undefined {
  return items.length === 0 ? undefined : s.random.pick(items);
}

/** Every refund the processor refuses: each one recorded is a failed row; none counts. */
async function concurrentRefusals(
  s: Sequence,
  payment: ModelPayment,
  amounts: number[],
  answers: Response[],
) {
  const codes = await Promise.all(answers.map(async (res) => (await errorOf(res)).code));
  expect(answers.map((res) => res.status)).toEqual(amounts.map(() => 409));
  const failed = amounts.filter((_, i) => codes[i] === 'refund_refused');
  expect(failed.length, 'at least one refund reaches the processor').toBeGreaterThan(0);
  // A refusal gives its amount back, so refusals one after another may add up to more.
  for (const amount of failed) {
    expect(amount).toBeLessThanOrEqual(payment.amountCents - payment.refundedCents);
  }
  s.refunds += failed.length;
  return `concurrent refunds [${amounts.join(', ')}] on ${payment.id} → refused [${failed.join(', ')}]`;
}

/** The processor refuses it: 409 refund_refused, also for a retry; a failed row, nothing refunded. */
async function refundRefused(
  s: Sequence,
  payment: ModelPayment,
  amountCents: number,
  key: string | undefined,
) {
  const reason = `refund ${s.refunds + 1}`;
  const answers = [await s.refund(payment, amountCents, key, reason)];
  if (key) answers.push(await s.refund(payment, amountCents, key, reason));
  for (const res of answers) {
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({
      code: 'refund_refused',
      message: `The card processor refused the refund: ${payment.refundFailure}`,
    });
  }
  s.refunds += 1;
  return `refund ${amountCents} of ${payment.id} refused (${payment.refundFailure})`;
}

async function refundAccepted(s: Sequence, payment: ModelPayment, amountCents: number) {
  // Sometimes the client retries (same Idempotency-Key): the refund is still made once.
  const key = s.random.chance(0.3) ? randomUUID() : undefined;
  if (payment.refundFailure) return refundRefused(s, payment, amountCents, key);
  const reason = `refund ${s.refunds + 1}`;
  const res = await s.refund(payment, amountCents, key, reason);
  expect(res.status).toBe(201);
  if (key) {
    const retried = await s.refund(payment, amountCents, key, reason);
    expect(retried.status).toBe(201);
    expect(await jsonOf(retried)).toEqual(await jsonOf(res.clone()));
  }
  payment.refundedCents += amountCents;
  s.refunds += 1;
  const answer = await jsonOf<PaymentResource>(res);
  expect(answer).toMatchObject({
    refundedCents: payment.refundedCents,
    refundableCents: payment.amountCents - payment.refundedCents,
  });
  return `refund ${amountCents}${key ? ' (retried)' : ''} of ${payment.id} (now ${payment.refundedCents}/${payment.amountCents})`;
}

const weighted = Object.entries(operations).flatMap(([name, { weight }]) =>
  Array<string>(weight).fill(name),
);

function viewStatus(payment: ModelPayment): string {
  if (payment.status !== 'captured' || payment.refundedCents === 0) return payment.status;
  return payment.refundedCents === payment.amountCents ? 'refunded' : 'partially_refunded';
}

/** Everything the app shows about the company's money agrees with the model. */
async function expectAgreesWithModel(s: Sequence) {
  const { companyId, token } = s.company;
  await ledger.verify(h);
  const net = s.capturedCents - s.refundedCents;
  const check = await ledgerConsistency(h.pool, companyId);
  expect(check, `ledger of company ${companyId}`).toEqual({
    balanced: true,
    availableCents: BigInt(net),
    capturedCents: BigInt(s.capturedCents),
    refundedCents: BigInt(s.refundedCents),
    depositedCents: 0n,
    paidOutCents: 0n,
  });
  expect(ledger.moved(companyId)).toEqual({
    capturedCents: BigInt(s.capturedCents),
    refundedCents: BigInt(s.refundedCents),
    depositedCents: 0n,
    paidOutCents: 0n,
  });

  const balance = await jsonOf(await h.call('GET', '/api/balance', { token }));
  expect(balance).toEqual({ currency: 'CAD', availableCents: net, asOf: null });

  const transactions = await h.call('GET', '/api/transactions?range=%5B0%2C0%5D', { token });
  expect(transactions.status).toBe(200);
  expect(transactions.headers.get('X-Total-Net-Cents')).toBe(String(net));
  const rows = s.with('captured').length + s.refunds;
  expect(transactions.headers.get('Content-Range')).toMatch(new RegExp(`/${rows}$`));

  for (const payment of s.payments) {
    const shown = await h.payment(token, payment.id);
    expect(shown, `payment ${payment.id}`).toMatchObject({
      status: viewStatus(payment),
      declineReason: payment.declineReason,
      amountCents: payment.amountCents,
      refundedCents: payment.refundedCents,
      refundableCents:
        payment.status === 'captured' ? payment.amountCents - payment.refundedCents : 0,
    });
    expect(shown.refundedCents).toBeLessThanOrEqual(shown.amountCents);
    const succeeded = shown.refunds.filter((refund) => refund.status === 'succeeded');
    expect(sum(succeeded.map((refund) => refund.amountCents))).toBe(payment.refundedCents);
    if (payment.refundFailure) expect(succeeded).toEqual([]);
  }
}

async function runSequence(index: number) {
  const random = seededRandom(seed + index);
  const s = new Sequence(random, await h.companyWithTerminal());
  let at = 'the final checks';
  try {
    for (let step = 0; step < stepsPerSequence; step++) {
      const name = random.pick(weighted);
      at = `step ${step} (${name})`;
      const done = await operations[name]?.run(s);
      if (done) s.trace.push(`${step}: ${done}`);
    }
    at = 'the final checks';
    await expectAgreesWithModel(s);
    for (const payment of s.with('pending')) leftPending.add(payment.id);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Money property failed (MONEY_PROPERTY_SEED=${seed}, sequence ${index}, company ${s.company.companyId}, at ${at}): ${message}\n` +
        `Last steps:\n  ${s.trace.slice(-15).join('\n  ')}`,
      { cause: error },
    );
  }
  return s;
}

describe(`money property (MONEY_PROPERTY_SEED=${seed})`, () => {
  it('keeps the ledger balanced and balance = captured − refunded over random sequences', async () => {
    const done: Sequence[] = [];
    for (let index = 0; index < sequences; index++) done.push(await runSequence(index));
    // The sequences did reach the interesting cases, or the property proves little.
    const traces = done.flatMap((s) => s.trace).join('\n');
    const cases = ['approves', 'declines', 'late capture', 'over-refund', 'concurrent refunds'];
    for (const reached of [...cases, 'expired']) {
      expect(traces, `no "${reached}" in ${sequences} sequences`).toContain(reached);
    }
  }, 120_000);
});

describe('the ledger check', () => {
  it('fails loudly, naming the company and its figures, when a ledger line is off by a cent', async () => {
    const company = await h.companyWithTerminal();
    const payment = await h.pay(company.token, {
      terminalId: company.terminalId,
      amountCents: 4_200,
      currency: 'CAD',
    });
    const presented = await h.call(
      'POST',
      `/api/terminals/${company.terminalId}/simulator/present-card`,
      { token: company.token, body: { paymentId: payment.id } },
    );
    expect(presented.status).toBe(202);
    await h.deliver();
    await ledger.verify(h);
    const tamper = (cents: number) =>
      h.pool.query(
        `UPDATE ledger_lines SET credit_cents = credit_cents + $2
          WHERE company_id = $1 AND credit_cents > 0`,
        [company.companyId, cents],
      );
    await tamper(1);
    try {
      await expect(ledger.verify(h)).rejects.toThrow(
        new RegExp(`company ${company.companyId}: .*balanced=false.*debits 4200 vs credits 4201`),
      );
    } finally {
      await tamper(-1);
    }
    await ledger.verify(h);
  });
});
