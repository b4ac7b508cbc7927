import { DomainError } from '@issuer/events';
import { RefundRefused, refundRefusedCode } from '../gateway';
import { signatureHeader, signWebhook } from '../webhooks/webhookSignature';
import {
  simulatorGatewayName,
  type TerminalSimulatorGateway,
  type WaitingPayment,
} from './terminalSimulator';

export interface TerminalGatewayClientOptions {
  /** Where `npm run terminal-simulator` listens (TERMINAL_GATEWAY_URL). */
  url: string;
  secret: Uint8Array;
  clock: () => Date;
  timeoutMs?: number;
}

/**
 * The API's adapter to the simulator running as its own process: the same port over HTTP, each
 * request signed. A 4xx from the simulator becomes the same DomainError the in-process adapter
 * throws (a refused refund its `RefundRefused`); a network failure or 5xx is an Error, which the caller retries (the scheduler resumes
 * an unsent payment; every call is idempotent by its key).
 */
export function createTerminalGatewayClient(
  options: TerminalGatewayClientOptions,
): TerminalSimulatorGateway {
  const call = (path: string, body: unknown) => signedPost(options, path, body);
  return {
    name: simulatorGatewayName,
    sendPayment: async (request) =>
      (await call('/payments', request)).json() as Promise<{ gatewayPaymentId: string }>,
    chargeSavedCard: async (request) =>
      (await call('/payments/off-session', request)).json() as Promise<{
        gatewayPaymentId: string;
      }>,
    async cancelPayment(request) {
      await call('/payments/cancel', request);
    },
    async refundPayment(request) {
      await call('/refunds', request);
    },
    async presentCard(request) {
      try {
        return (await (await call('/terminals/present-card', request)).json()) as {
          paymentId: string;
        };
      } catch (error) {
        if (error instanceof DomainError && error.status === 409) return undefined;
        throw error;
      }
    },
    async waitingOn(companyId, terminalId) {
      const answer = await call('/terminals/waiting', { companyId, terminalId });
      return ((await answer.json()) as { waiting: WaitingPayment[] }).waiting;
    },
  };
}

const passedOn = new Set([400, 404, 409]);

/**
 * A signed POST to a simulator running as its own process (shared by both providers' HTTP
 * adapters): a 4xx it passes on becomes a DomainError, anything else that fails an Error.
 */
export async function signedPost(
  {
    url,
    secret,
    clock,
    timeoutMs = 10_000,
    header = signatureHeader,
    label = 'terminal simulator',
  }: TerminalGatewayClientOptions & { header?: string; label?: string },
  path: string,
  body: unknown,
): Promise<Response> {
  const raw = JSON.stringify(body);
  const response = await fetch(new URL(path, url), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      [header]: signWebhook(secret, raw, clock()),
    },
    body: raw,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.ok) return response;
  const text = await response.text();
  // A 401 means the two sides hold different secrets: the operator's problem, not the user's.
  if (passedOn.has(response.status)) {
    const error = safeJson(text)?.error;
    if (error?.code === refundRefusedCode) throw new RefundRefused(error.reason ?? 'unknown');
    throw new DomainError(
      response.status as DomainError['status'],
      error?.code ?? 'gateway_refused',
      error?.message ?? `The ${label} answered ${response.status}`,
      error?.fields,
    );
  }
  throw new Error(`${label} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
}

function safeJson(text: string):
  | {
      error?: {
        code?: string;
        message?: string;
        reason?: string;
        fields?: Record<string, string>;
      };
    }
  | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
