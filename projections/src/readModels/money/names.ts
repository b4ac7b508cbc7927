import type { RecordedEvent } from '@issuer/events';
import type { PoolClient } from 'pg';
import type { Names } from './paymentRows';

/** The customer and terminal events whose names payments and transactions show. */
export const nameEventTypes = [
  'CustomerAdded',
  'CustomerUpdated',
  'PaymentTerminalRegistered',
  'PaymentTerminalRenamed',
  'PaymentTerminalRemoved',
] as const;

interface CustomerName {
  companyId: string;
  firstName: string;
  lastName: string;
  position: bigint;
}
interface TerminalName {
  companyId: string;
  /** Null once the terminal is removed, as the payment's own page shows it. */
  name: string | null;
  position: bigint;
}

/** "name lastName", or null for a customer without either. */
export const fullName = (name: { firstName: string; lastName: string }) =>
  `${name.firstName} ${name.lastName}`.trim() || null;

/**
 * The names a batch needs, loaded once, changed in memory in event order, written back at the
 * end. A name ignores events at or before its position, so a replay changes nothing.
 */
export class NameBook implements Names {
  readonly #customers = new Map<string, CustomerName>();
  readonly #terminals = new Map<string, TerminalName>();
  readonly #changedCustomers = new Set<string>();
  readonly #changedTerminals = new Set<string>();
  /** Renamed ones whose existing rows must show the new name. */
  readonly renamedCustomers = new Set<string>();
  readonly renamedTerminals = new Set<string>();

  static async load(
    client: PoolClient,
    customerIds: readonly string[],
    terminalIds: readonly string[],
  ): Promise<NameBook> {
    const book = new NameBook();
    // One client runs one query at a time.
    const customers = await client.query<{
      customer_id: string;
      company_id: string;
      first_name: string;
      last_name: string;
      position: string;
    }>(
      `SELECT customer_id, company_id, first_name, last_name, position
           FROM money_customer_names WHERE customer_id = ANY($1)`,
      [customerIds],
    );
    const terminals = await client.query<{
      terminal_id: string;
      company_id: string;
      name: string | null;
      position: string;
    }>(
      `SELECT terminal_id, company_id, name, position
         FROM money_terminal_names WHERE terminal_id = ANY($1)`,
      [terminalIds],
    );
    for (const row of customers.rows) {
      book.#customers.set(row.customer_id, {
        companyId: row.company_id,
        firstName: row.first_name,
        lastName: row.last_name,
        position: BigInt(row.position),
      });
    }
    for (const row of terminals.rows) {
      book.#terminals.set(row.terminal_id, {
        companyId: row.company_id,
        name: row.name,
        position: BigInt(row.position),
      });
    }
    return book;
  }

  customer(id: string | null): string | null {
    const found = id === null ? undefined : this.#customers.get(id);
    return found ? fullName(found) : null;
  }

  terminal(id: string): string | null {
    return this.#terminals.get(id)?.name ?? null;
  }

  /** Folds one name event in. */
  apply(recorded: RecordedEvent): void {
    const { position } = recorded;
    switch (recorded.type) {
      case 'CustomerAdded': {
        const data = recorded.data as {
          customerId: string;
          companyId: string;
          profile: { name: string; lastName: string };
        };
        const known = this.#customers.get(data.customerId);
        if (known && known.position >= position) return;
        this.#setCustomer(data.customerId, {
          companyId: data.companyId,
          firstName: data.profile.name,
          lastName: data.profile.lastName,
          position,
        });
        return;
      }
      case 'CustomerUpdated': {
        const data = recorded.data as {
          customerId: string;
          changes: { name?: string; lastName?: string };
        };
        const known = this.#customers.get(data.customerId);
        if (!known || known.position >= position) return;
        const { name, lastName } = data.changes;
        if (name === undefined && lastName === undefined) return;
        this.#setCustomer(data.customerId, {
          ...known,
          firstName: name ?? known.firstName,
          lastName: lastName ?? known.lastName,
          position,
        });
        this.renamedCustomers.add(data.customerId);
        return;
      }
      case 'PaymentTerminalRegistered':
      case 'PaymentTerminalRenamed':
      case 'PaymentTerminalRemoved': {
        const data = recorded.data as { terminalId: string; companyId: string; name?: string };
        const known = this.#terminals.get(data.terminalId);
        if (known && known.position >= position) return;
        this.#terminals.set(data.terminalId, {
          companyId: data.companyId,
          name: data.name ?? null,
          position,
        });
        this.#changedTerminals.add(data.terminalId);
        if (recorded.type !== 'PaymentTerminalRegistered') {
          this.renamedTerminals.add(data.terminalId);
        }
        return;
      }
    }
  }

  #setCustomer(id: string, name: CustomerName): void {
    this.#customers.set(id, name);
    this.#changedCustomers.add(id);
  }

  /** Stores the changed names and puts renamed ones on the rows that show them. */
  async save(client: PoolClient): Promise<void> {
    const customers = [...this.#changedCustomers].flatMap((id) => {
      const name = this.#customers.get(id);
      return name ? [{ ...name, id, position: name.position.toString() }] : [];
    });
    const terminals = [...this.#changedTerminals].flatMap((id) => {
      const name = this.#terminals.get(id);
      return name ? [{ ...name, id, position: name.position.toString() }] : [];
    });
    if (customers.length > 0) {
      await client.query(
        `INSERT INTO money_customer_names AS n (customer_id, company_id, first_name, last_name, position)
         SELECT id, "companyId", "firstName", "lastName", position FROM jsonb_to_recordset($1::jsonb)
           AS r(id text, "companyId" text, "firstName" text, "lastName" text, position bigint)
         ON CONFLICT (customer_id) DO UPDATE SET first_name = EXCLUDED.first_name,
           last_name = EXCLUDED.last_name, position = EXCLUDED.position
         WHERE n.position < EXCLUDED.position`,
        [JSON.stringify(customers)],
      );
    }
    if (terminals.length > 0) {
      await client.query(
        `INSERT INTO money_terminal_names AS n (terminal_id, company_id, name, position)
         SELECT id, "companyId", name, position FROM jsonb_to_recordset($1::jsonb)
           AS r(id text, "companyId" text, name text, position bigint)
         ON CONFLICT (terminal_id) DO UPDATE SET name = EXCLUDED.name, position = EXCLUDED.position
         WHERE n.position < EXCLUDED.position`,
        [JSON.stringify(terminals)],
      );
    }
    await this.#renameRows(client);
  }

  async #renameRows(client: PoolClient): Promise<void> {
    const customers = [...this.renamedCustomers].map((id) => ({ id, name: this.customer(id) }));
    const terminals = [...this.renamedTerminals].map((id) => ({ id, name: this.terminal(id) }));
    for (const table of ['payments', 'money_transactions']) {
      if (customers.length > 0) {
        await client.query(
          `UPDATE ${table} t SET customer_name = r.name
             FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text)
            WHERE t.customer_id = r.id AND t.customer_name IS DISTINCT FROM r.name`,
          [JSON.stringify(customers)],
        );
      }
      if (terminals.length > 0) {
        await client.query(
          `UPDATE ${table} t SET terminal_name = r.name
             FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text)
            WHERE t.terminal_id = r.id AND t.terminal_name IS DISTINCT FROM r.name`,
          [JSON.stringify(terminals)],
        );
      }
    }
  }
}
