import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import type { GatewayEvent } from '../gateway';
import { signatureHeader, signWebhook } from '../webhooks/webhookSignature';

/**
 * Which simulator's outbox: its table (id, event_id, <keyColumn>, body, attempts,
 * next_attempt_at, delivered_at, last_error), the column naming what each event is about, the
 * signature header, and the name its log lines carry. The terminal and e-transfer simulators
 * share this outbox and the signature scheme, each with its own table and header.
 */
export interface OutboxChannel<Event extends { id: string }> {
  table: string;
  keyColumn: string;
  keyOf(event: Event): string;
  header: string;
  label: string;
}

export const terminalOutboxChannel: OutboxChannel<GatewayEvent> = {
  table: 'terminal_simulator_webhooks',
  keyColumn: 'payment_id',
  keyOf: (event) => event.paymentId,
  header: signatureHeader,
  label: 'terminal simulator',
};

/** Sends one signed webhook; answers the HTTP status (a thrown error counts as a failure). */
export type WebhookTransport = (request: {
  body: string;
  headers: Record<string, string>;
}) => Promise<number>;

/** How the simulator misbehaves on purpose, as real processors do now and then. */
export interface WebhookDeliveryOptions {
  /** Share of webhooks (0 to 1) delivered a second time. Default 0. */
  duplicateRate?: number;
  /**
   * Approvals report `payment.captured` before `payment.authorized`: always (true), never
   * (false, the default), or for this share of approvals (0 to 1).
   */
  reorder?: boolean | number;
  /** First retry after this long, doubling up to `retryMaxMs`. Defaults 250 ms and 30 s. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** After this many failed attempts the webhook is given up on (logged). Default 20. */
  maxAttempts?: number;
  /** How often the outbox is polled for retries that are due. Default 1 s. */
  pollMs?: number;
  /** Randomness for `duplicateRate` (tests pass a fixed sequence). */
  random?: () => number;
}

/** What a simulator needs to report outcomes through signed webhooks. */
export interface SimulatorWebhookOptions {
  pool: Pool;
  clock: () => Date;
  /** Signs the webhooks. */
  secret: Uint8Array;
  /** Where webhooks go (the API's webhook route), unless `deliver` is a transport of one's own. */
  webhookUrl?: string;
  deliver?: WebhookTransport;
  delivery?: WebhookDeliveryOptions;
  logger?: Logger;
}

/** The outbox a simulator reports through: `deliver`, or HTTP to `webhookUrl`. */
export function simulatorOutbox<Event extends { id: string }>(
  options: SimulatorWebhookOptions,
  channel: OutboxChannel<Event>,
): WebhookOutbox<Event> {
  const transport =
    options.deliver ?? (options.webhookUrl ? httpTransport(options.webhookUrl) : undefined);
  if (!transport) throw new Error(`The ${channel.label} needs a webhookUrl or a deliver function`);
  const { pool, secret, clock, logger, delivery } = options;
  return new WebhookOutbox(pool, transport, secret, clock, logger, delivery, channel);
}

/** Posts to the API's webhook route with `Content-Type: application/json`. */
export function httpTransport(url: string, timeoutMs = 10_000): WebhookTransport {
  return async ({ body, headers }) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.status;
  };
}

/**
 * The simulator's webhook outbox: events are written in the transaction that decides them, then
 * delivered at least once, signed at each attempt, retried with backoff until a 2xx. Rows are
 * claimed with a lease (SKIP LOCKED), so two API processes never send the same row at once.
 */
export class WebhookOutbox<Event extends { id: string } = GatewayEvent> {
  private readonly options: Required<Omit<WebhookDeliveryOptions, 'random' | 'reorder'>> & {
    reorderRate: number;
    random: () => number;
  };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** Until `start()`, nothing is sent on its own (tests call `deliverDue`). */
  private stopped = true;

  constructor(
    private readonly pool: Pool,
    private readonly transport: WebhookTransport,
    private readonly secret: Uint8Array,
    private readonly clock: () => Date,
    private readonly logger: Logger | undefined,
    options: WebhookDeliveryOptions = {},
    private readonly channel: OutboxChannel<Event> = terminalOutboxChannel as unknown as OutboxChannel<Event>,
  ) {
    this.options = {
      duplicateRate: options.duplicateRate ?? 0,
      reorderRate: Number(options.reorder ?? 0),
      retryBaseMs: options.retryBaseMs ?? 250,
      retryMaxMs: options.retryMaxMs ?? 30_000,
      maxAttempts: options.maxAttempts ?? 20,
      pollMs: options.pollMs ?? 1_000,
      random: options.random ?? Math.random,
    };
  }

  /** Within the deciding transaction: the events as they will go out (order, duplicates). */
  async enqueue(client: PoolClient, events: readonly Event[]): Promise<void> {
    const reorder =
      this.options.reorderRate > 0 && this.options.random() < this.options.reorderRate;
    const ordered = reorder ? [...events].reverse() : [...events];
    const rows = [
      ...ordered,
      ...ordered.filter(() => this.options.random() < this.options.duplicateRate),
    ];
    await client.query(
      `INSERT INTO ${this.channel.table} (event_id, ${this.channel.keyColumn}, body)
       SELECT id, key, body
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS e(id, key, body, n)
        ORDER BY n`,
      [
        rows.map((e) => e.id),
        rows.map((e) => this.channel.keyOf(e)),
        rows.map((e) => JSON.stringify(e)),
      ],
    );
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Delivers what is due soon, without waiting for the next poll. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.deliverLoop().finally(() => {
      this.running = undefined;
    });
  }

  /** Delivers every webhook due now; resolves when none is left (tests, and kick's loop). */
  async deliverDue(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const batch = await this.claim();
      if (batch.length === 0) return delivered;
      for (const row of batch) if (await this.send(row)) delivered += 1;
    }
  }

  /** Waits for the delivery in progress, then stops polling. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async deliverLoop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.deliverDue();
      } catch (error) {
        this.logger?.error({ err: error }, `${this.channel.label}: webhook delivery failed`);
      }
    } while (this.again && !this.stopped);
  }

  private async claim(): Promise<OutboxRow[]> {
    const { rows } = await this.pool.query<OutboxRow>(
      `UPDATE ${this.channel.table}
          SET attempts = attempts + 1, next_attempt_at = now() + interval '60 seconds'
        WHERE id IN (SELECT id FROM ${this.channel.table}
                      WHERE delivered_at IS NULL AND next_attempt_at <= now()
                      ORDER BY id LIMIT 50 FOR UPDATE SKIP LOCKED)
        RETURNING id::text, event_id, body, attempts`,
    );
    return rows.sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  }

  private async send(row: OutboxRow): Promise<boolean> {
    let problem: string;
    try {
      const status = await this.transport({
        body: row.body,
        headers: { [this.channel.header]: signWebhook(this.secret, row.body, this.clock()) },
      });
      if (status >= 200 && status < 300) {
        await this.pool.query(
          `UPDATE ${this.channel.table} SET delivered_at = now(), last_error = NULL WHERE id = $1`,
          [row.id],
        );
        return true;
      }
      problem = `HTTP ${status}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    await this.retryLater(row, problem);
    return false;
  }

  private async retryLater(row: OutboxRow, problem: string): Promise<void> {
    const { retryBaseMs, retryMaxMs, maxAttempts } = this.options;
    const givingUp = row.attempts >= maxAttempts;
    const waitMs = Math.min(retryBaseMs * 2 ** (row.attempts - 1), retryMaxMs);
    await this.pool.query(
      `UPDATE ${this.channel.table}
          SET last_error = $2,
              next_attempt_at = CASE WHEN $3 THEN 'infinity'::timestamptz
                                     ELSE now() + make_interval(secs => $4::double precision / 1000) END
        WHERE id = $1`,
      [row.id, problem.slice(0, 500), givingUp, waitMs],
    );
    const log = { eventId: row.event_id, attempts: row.attempts, problem };
    const { label } = this.channel;
    if (givingUp) this.logger?.error(log, `${label}: gave up on a webhook`);
    else this.logger?.warn({ ...log, retryInMs: waitMs }, `${label}: webhook will be retried`);
  }
}

interface OutboxRow {
  id: string;
  event_id: string;
  body: string;
  attempts: number;
}
