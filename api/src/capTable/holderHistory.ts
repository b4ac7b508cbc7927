import type { Pool } from 'pg';

export interface HoldingChange {
  revision: number;
  type: 'SharesIssued' | 'SharesTransferred';
  at: string;
  actorId: string;
  reason: string;
  before: number;
  after: number;
  details: {
    movementId: string;
    shareClassId: string;
    shareClassName: string | null;
    shares: number;
    fromCustomerId: string | null;
    toCustomerId: string;
  };
}

/**
 * Each issuance and transfer that changed a holder's shares, with their total before and after
 * (the customer's tokenBalance), oldest first, from the cap table read model.
 */
export async function holderHistory(
  pool: Pool,
  companyId: string,
  customerId: string,
): Promise<HoldingChange[]> {
  const { rows } = await pool.query<{
    revision: string;
    share_class_id: string;
    shares: string;
    movement_id: string;
    kind: string;
    moved: string;
    effective_at: Date;
    reason: string;
    actor_id: string;
    from_customer_id: string | null;
    to_customer_id: string;
    class_name: string | null;
  }>(
    `SELECT b.revision, b.share_class_id, b.shares, m.movement_id, m.kind, m.shares AS moved,
            m.effective_at, m.reason, m.actor_id, m.from_customer_id, m.to_customer_id,
            c.name AS class_name
       FROM cap_table_balances b
       JOIN share_movements m ON m.company_id = b.company_id AND m.revision = b.revision
       LEFT JOIN share_classes c ON c.share_class_id = b.share_class_id
      WHERE b.company_id = $1 AND b.customer_id = $2
      ORDER BY b.revision`,
    [companyId, customerId],
  );
  const perClass = new Map<string, number>();
  let total = 0;
  return rows.map((row) => {
    const shares = Number(row.shares);
    const before = total;
    total += shares - (perClass.get(row.share_class_id) ?? 0);
    perClass.set(row.share_class_id, shares);
    return {
      revision: Number(row.revision),
      type: row.kind === 'issuance' ? 'SharesIssued' : 'SharesTransferred',
      at: row.effective_at.toISOString(),
      actorId: row.actor_id,
      reason: row.reason,
      before,
      after: total,
      details: {
        movementId: row.movement_id,
        shareClassId: row.share_class_id,
        shareClassName: row.class_name,
        shares: Number(row.moved),
        fromCustomerId: row.from_customer_id,
        toCustomerId: row.to_customer_id,
      },
    };
  });
}
