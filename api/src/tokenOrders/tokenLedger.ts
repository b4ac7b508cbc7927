import { createHash } from 'node:crypto';

export interface TokenDistribution {
  /** The idempotency key: a second call for one order answers the first transaction. */
  orderId: string;
  companyId: string;
  roundId: string;
  walletAddress: string;
  tokens: number;
}

export interface LedgerTransaction {
  transactionHash: string;
  blockNumber: number;
}

/** Where tokens go out to investors' wallets (a chain, a transfer agent's registry). */
export interface TokenLedger {
  distribute(distribution: TokenDistribution): Promise<LedgerTransaction>;
}

export class TokenLedgerError extends Error {}

/**
 * The default adapter: records a simulated chain transaction after a short delay. Its hash is
 * derived from the order, so a repeat answers the same transaction. Tests make it fail: the
 * next `n` calls (`failNext`), or every call for a wallet (`failWallet`).
 */
export class SimulatedTokenLedger implements TokenLedger {
  readonly transactions = new Map<string, LedgerTransaction & TokenDistribution>();
  private failures = 0;
  private readonly failingWallets = new Set<string>();
  private block = 19_000_000;

  constructor(private readonly options: { delayMs?: number } = {}) {}

  failNext(times = 1) {
    this.failures += times;
  }

  failWallet(walletAddress: string, failing = true) {
    if (failing) this.failingWallets.add(walletAddress.toLowerCase());
    else this.failingWallets.delete(walletAddress.toLowerCase());
  }

  async distribute(distribution: TokenDistribution): Promise<LedgerTransaction> {
    const delayMs = this.options.delayMs ?? 50;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const known = this.transactions.get(distribution.orderId);
    if (known) return { transactionHash: known.transactionHash, blockNumber: known.blockNumber };
    if (this.failures > 0) {
      this.failures -= 1;
      throw new TokenLedgerError('The simulated chain rejected the transaction (test failure)');
    }
    if (this.failingWallets.has(distribution.walletAddress.toLowerCase())) {
      throw new TokenLedgerError('The simulated chain rejected the wallet (test failure)');
    }
    this.block += 1;
    const transactionHash = `0x${createHash('sha256').update(`tokens\n${distribution.orderId}`).digest('hex')}`;
    const transaction = { ...distribution, transactionHash, blockNumber: this.block };
    this.transactions.set(distribution.orderId, transaction);
    return { transactionHash, blockNumber: this.block };
  }
}
