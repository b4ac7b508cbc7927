import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import type { RecordedEvent } from '../eventStore';
import * as allExports from '../index';
import { integrationEnvelope, integrationHeaders, toIntegrationMessage } from './envelope';
import {
  type InternalEvent,
  type InternalEventType,
  integrationMapping,
  integrationMappings,
} from './publicEvents';
import { integrationTopics } from './topics';

const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$secret-hash-value';
const tokenId = 'tok-7f3c-secret-token-id';
const companyId = 'c-1';
const at = '2025-03-01T10:00:00.000Z';

type Sample<Type extends InternalEventType> = {
  streamId: string;
  data: Extract<InternalEvent, { type: Type }>['data'];
};

/** One stored event of every internal type, secrets included (a missing type fails the type check). */
const customerIds = { customerId: 'cu-1', companyId };
const customerStream = 'Customer-cu-1';
const customerProfile = {
  name: 'Ada',
  lastName: 'Lovelace',
  nickname: 'ada',
  avatar: '',
  company: 'Engines',
  jobTitle: 'CTO',
  email: 'ada@engines.test',
  phone: '+1 555 0100',
  address: '1 Main St',
  birthday: '1815-12-10',
  notes: '',
  tags: ['vip'],
  roundId: 'r-1',
  tokenPrice: 1.5,
  tokenBalance: 100,
  percentageOwned: 0.1,
  walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};

const paymentIds = { paymentId: 'pay_1', companyId };
const paymentStream = 'Payment-pay_1';
const gatewaySecrets = ['gw-pi-secret-ref', 'gw-ev-secret-id'];
const etransferIds = { etransferId: 'et_1', companyId };
const etransferStream = 'ETransfer-et_1';
const providerSecrets = {
  providerEventId: 'gw-ev-secret-id',
  providerTransferId: 'gw-pi-secret-ref',
};
const capTableStream = 'CapTable-c-1';
const roundStream = 'FundingRound-rnd_1';
const orderStream = 'TokenOrder-ord_1';
const shareClassIds = { companyId, shareClassId: 'shc_1' };
const shareClassTerms = {
  name: 'Common',
  kind: 'common' as const,
  votesPerShare: 1,
  parValue: '0.0001',
  liquidationPreferenceMultiple: 1,
  seniority: 0,
  authorized: 10_000_000,
};
const roundIds = { companyId, roundId: 'rnd_1' };
const orderIds = { companyId, orderId: 'ord_1' };
const roundTerms = {
  name: 'Seed',
  handle: 'seed',
  shareClassId: 'shc_1',
  currency: 'CAD' as const,
  tokenPriceCents: 100,
  raiseAmountCents: 50_000,
  minInvestmentCents: null,
  maxInvestmentCents: 10_000,
  opensAt: at,
  closesAt: at,
  description: '',
  images: [],
};
const walletEntry = { companyId, entryId: 'pay_1', amountCents: 2500, recordedAt: at };
const plan = {
  planId: 'plan_1',
  companyId,
  name: 'Gold',
  amountCents: 1500,
  currency: 'CAD' as const,
  interval: 'month' as const,
  intervalCount: 1,
  trialDays: 0,
};
const documentIds = { documentId: 'doc_1', companyId };
const documentStream = 'Document-doc_1';
const documentFile = {
  fileName: 'agreement.pdf',
  mediaType: 'application/pdf' as const,
  sizeBytes: 1024,
  sha256: 'a'.repeat(64),
};
const signatureIds = { requestId: 'sig_1', companyId };
const signatureStream = 'SignatureRequest-sig_1';
const envelope = [{ documentId: 'doc_1', version: 1, title: 'Agreement', sha256: 'a'.repeat(64) }];
/** Where the signer acted from: personal data that stays out of the topic. */
const signerSecrets = { ip: '203.0.113.77', userAgent: 'SecretBrowser/9.9' };
const planTerms = {
  planId: 'plan_1',
  planName: 'Gold',
  amountCents: 1500,
  currency: 'CAD' as const,
  interval: 'month' as const,
  intervalCount: 1,
};
const subscriptionStream = 'Subscription-sub_1';
const subscriptionIds = { subscriptionId: 'sub_1', companyId };
const invoiceIds = { ...subscriptionIds, invoiceId: 'in_1_0' };

const samples: { [Type in InternalEventType]: Sample<Type> } = {
  CompanyRegistered: {
    streamId: 'Company-c-1',
    data: { companyId, name: 'Maple', symbol: 'MAPL', registeredBy: 'u-1', registeredAt: at },
  },
  CompanyProfileUpdated: {
    streamId: 'Company-c-1',
    data: { companyId, name: 'Maple Robotics', avatar: null },
  },
  CompanyVerified: {
    streamId: 'Company-c-1',
    data: { companyId, verifiedBy: 'op', verifiedAt: at },
  },
  IssuerStatusGranted: {
    streamId: 'Company-c-1',
    data: { companyId, grantedBy: 'op', grantedAt: at },
  },
  IssuerStatusRevoked: {
    streamId: 'Company-c-1',
    data: { companyId, revokedBy: 'op', revokedAt: at },
  },
  CompanyVerificationRevoked: {
    streamId: 'Company-c-1',
    data: { companyId, reason: 'Documents expired', revokedBy: 'op', revokedAt: at },
  },
  CompanySuspended: {
    streamId: 'Company-c-1',
    data: { companyId, reason: 'Chargebacks under review', suspendedBy: 'op', suspendedAt: at },
  },
  CompanyReinstated: {
    streamId: 'Company-c-1',
    data: { companyId, reason: 'Review closed', reinstatedBy: 'op', reinstatedAt: at },
  },
  PaymentTerminalRegistered: {
    streamId: 'Company-c-1',
    data: { companyId, terminalId: 't-1', name: 'Front desk', deviceId: 'dev-1' },
  },
  PaymentTerminalRenamed: {
    streamId: 'Company-c-1',
    data: { companyId, terminalId: 't-1', name: 'Back desk' },
  },
  PaymentTerminalRemoved: { streamId: 'Company-c-1', data: { companyId, terminalId: 't-1' } },
  SymbolReserved: { streamId: 'CompanySymbol-MAPL', data: { symbol: 'MAPL', companyId } },
  SymbolReleased: { streamId: 'CompanySymbol-MAPL', data: { symbol: 'MAPL', companyId } },
  UserRegistered: {
    streamId: 'User-u-1',
    data: {
      userId: 'u-1',
      companyId,
      email: 'cfo@maple.test',
      displayName: 'cfo',
      passwordHash,
      roles: ['admin'],
      registeredAt: at,
    },
  },
  UserSettingsUpdated: {
    streamId: 'UserSettings-u-1',
    data: { userId: 'u-1', settings: { theme: 'dark' }, shortcuts: ['mail'] },
  },
  UserPasswordChanged: {
    streamId: 'User-u-1',
    data: { userId: 'u-1', passwordHash, passwordVersion: 3, changedAt: at },
  },
  UserSignedOut: { streamId: 'User-u-1', data: { userId: 'u-1', tokenId, expiresAt: at } },
  EmailReserved: {
    streamId: 'UserEmail-cfo@maple.test',
    data: { email: 'cfo@maple.test', userId: 'u-1', companyId },
  },
  EmailReleased: {
    streamId: 'UserEmail-cfo@maple.test',
    data: { email: 'cfo@maple.test', userId: 'u-1' },
  },
  CustomerAdded: {
    streamId: customerStream,
    data: {
      ...customerIds,
      profile: customerProfile,
      leadStatus: 'Warm',
      investorStatus: 'Not Registered',
      starred: false,
      addedAt: at,
    },
  },
  CustomerUpdated: {
    streamId: customerStream,
    data: { ...customerIds, changes: { phone: '+1 555 0199', tags: [] } },
  },
  CustomerRemoved: {
    streamId: customerStream,
    data: { ...customerIds, email: 'ada@engines.test', reason: 'duplicate' },
  },
  CustomerStarred: { streamId: customerStream, data: customerIds },
  CustomerUnstarred: { streamId: customerStream, data: customerIds },
  InvestorStatusChanged: {
    streamId: customerStream,
    data: {
      ...customerIds,
      from: 'KYC Complete',
      to: 'Registered with the product',
      kind: 'reversal',
      reason: 'passport expired',
      evidence: 'doc-7',
      changedBy: 'u-1',
      changedAt: at,
    },
  },
  LeadStatusChanged: {
    streamId: customerStream,
    data: { ...customerIds, from: 'Cold', to: 'Hot' },
  },
  PushNotificationSent: {
    streamId: customerStream,
    data: { ...customerIds, notificationId: 'n-1', title: 'Round open', message: 'Join' },
  },
  CustomerEmailReserved: {
    streamId: 'CustomerEmail-c-1:ada@engines.test',
    data: { companyId, email: 'ada@engines.test', customerId: 'cu-1' },
  },
  CustomerEmailReleased: {
    streamId: 'CustomerEmail-c-1:ada@engines.test',
    data: { companyId, email: 'ada@engines.test', customerId: 'cu-1' },
  },
  PaymentRequested: {
    streamId: paymentStream,
    data: {
      ...paymentIds,
      terminalId: 't-1',
      amountCents: 2500,
      currency: 'CAD',
      customerId: 'cu-1',
      description: 'Coffee beans',
      requestedBy: 'u-1',
      requestedAt: at,
      expiresAt: '2025-03-01T10:05:00.000Z',
    },
  },
  CardSaved: {
    streamId: 'PaymentMethod-pm_1',
    data: {
      paymentMethodId: 'pm_1',
      companyId,
      customerId: 'cu-1',
      cardToken: 'gw-pi-secret-ref',
      cardBrand: 'visa',
      cardLast4: '4242',
      expMonth: 12,
      expYear: 2030,
      paymentId: 'pay_1',
      savedBy: 'u-1',
      savedAt: at,
    },
  },
  CardRemoved: {
    streamId: 'PaymentMethod-pm_1',
    data: {
      paymentMethodId: 'pm_1',
      companyId,
      customerId: 'cu-1',
      removedBy: 'u-1',
      removedAt: at,
    },
  },
  PaymentSentToTerminal: {
    streamId: paymentStream,
    data: { ...paymentIds, terminalId: 't-1', gatewayPaymentId: 'gw-pi-secret-ref', sentAt: at },
  },
  PaymentAuthorized: {
    streamId: paymentStream,
    data: {
      ...paymentIds,
      gatewayEventId: 'gw-ev-secret-id',
      amountCents: 2500,
      cardBrand: 'visa',
      cardLast4: '4242',
      authorizedAt: at,
    },
  },
  PaymentCaptured: {
    streamId: paymentStream,
    data: {
      ...paymentIds,
      gatewayEventId: 'gw-ev-secret-id',
      amountCents: 2500,
      currency: 'CAD',
      capturedAt: at,
    },
  },
  PaymentDeclined: {
    streamId: paymentStream,
    data: {
      ...paymentIds,
      gatewayEventId: 'gw-ev-secret-id',
      reason: 'insufficient_funds',
      declinedAt: at,
    },
  },
  PaymentCancelled: {
    streamId: paymentStream,
    data: { ...paymentIds, cancelledBy: 'u-1', cancelledAt: at },
  },
  PaymentExpired: { streamId: paymentStream, data: { ...paymentIds, expiredAt: at } },
  PaymentRefunded: {
    streamId: paymentStream,
    data: {
      ...paymentIds,
      refundId: 'rf-1',
      amountCents: 1000,
      currency: 'CAD',
      reason: 'Damaged item',
      refundedBy: 'u-1',
      refundedAt: at,
    },
  },
  PaymentRefundConfirmed: {
    streamId: paymentStream,
    data: { ...paymentIds, refundId: 'rf-1', confirmedAt: at },
  },
  PaymentRefundFailed: {
    streamId: paymentStream,
    data: {
      ...paymentIds,
      refundId: 'rf-1',
      amountCents: 1000,
      currency: 'CAD',
      reason: 'expired_or_canceled_card',
      failedAt: at,
    },
  },
  EtransferRequested: {
    streamId: etransferStream,
    data: {
      ...etransferIds,
      customerId: 'cu-1',
      recipientEmail: 'ada@engines.test',
      amountCents: 5000,
      currency: 'CAD',
      message: 'Invoice 12',
      reference: 'INV-12',
      requestedBy: 'u-1',
      requestedAt: at,
      expiresAt: '2025-03-31T10:00:00.000Z',
    },
  },
  EtransferSent: {
    streamId: etransferStream,
    data: { ...etransferIds, providerTransferId: 'gw-pi-secret-ref', sentAt: at },
  },
  EtransferDeposited: {
    streamId: etransferStream,
    data: {
      ...etransferIds,
      providerEventId: 'gw-ev-secret-id',
      amountCents: 5000,
      currency: 'CAD',
      depositedAt: at,
    },
  },
  EtransferDeclined: {
    streamId: etransferStream,
    data: { ...etransferIds, providerEventId: 'gw-ev-secret-id', declinedAt: at },
  },
  EtransferCancelled: {
    streamId: etransferStream,
    data: { ...etransferIds, cancelledBy: 'u-1', cancelledAt: at },
  },
  EtransferExpired: { streamId: etransferStream, data: { ...etransferIds, expiredAt: at } },
  IncomingEtransferReceived: {
    streamId: etransferStream,
    data: {
      ...etransferIds,
      ...providerSecrets,
      fromEmail: 'ada@engines.test',
      amountCents: 1200,
      currency: 'CAD',
      reference: null,
      customerId: 'cu-1',
      matchedBy: 'email',
      receivedAt: at,
    },
  },
  EtransferMatched: {
    streamId: etransferStream,
    data: {
      ...etransferIds,
      customerId: 'cu-1',
      reason: 'Sent from her husband',
      matchedBy: 'u-1',
      matchedAt: at,
    },
  },
  PayoutRequested: {
    streamId: etransferStream,
    data: {
      ...etransferIds,
      customerId: 'cu-1',
      recipientEmail: 'ada@engines.test',
      amountCents: 700,
      currency: 'CAD',
      message: null,
      requestedBy: 'u-1',
      requestedAt: at,
    },
  },
  PayoutSent: {
    streamId: etransferStream,
    data: { ...etransferIds, ...providerSecrets, sentAt: at },
  },
  PayoutFailed: {
    streamId: etransferStream,
    data: {
      ...etransferIds,
      providerEventId: 'gw-ev-secret-id',
      amountCents: 700,
      reason: 'recipient_not_registered',
      failedAt: at,
    },
  },
  WalletCredited: { streamId: 'CompanyWallet-c-1', data: { ...walletEntry, source: 'payment' } },
  WalletDebited: { streamId: 'CompanyWallet-c-1', data: { ...walletEntry, source: 'payout' } },
  PlanCreated: { streamId: 'Plan-plan_1', data: { ...plan, createdBy: 'u-1', createdAt: at } },
  PlanUpdated: { streamId: 'Plan-plan_1', data: { ...plan, updatedBy: 'u-1', updatedAt: at } },
  PlanArchived: {
    streamId: 'Plan-plan_1',
    data: { planId: 'plan_1', companyId, archivedBy: 'u-1', archivedAt: at },
  },
  SubscriptionCreated: {
    streamId: subscriptionStream,
    data: {
      ...subscriptionIds,
      ...planTerms,
      customerId: 'cu-1',
      collectionMethod: 'etransfer',
      startAt: at,
      trialEndsAt: null,
      billingAnchor: at,
      createdBy: 'u-1',
      createdAt: at,
    },
  },
  InvoiceIssued: {
    streamId: subscriptionStream,
    data: {
      ...invoiceIds,
      ...planTerms,
      customerId: 'cu-1',
      number: 'SUB1-0001',
      periodIndex: 0,
      periodStart: at,
      periodEnd: at,
      issuedAt: at,
    },
  },
  InvoiceCollectionAttempted: {
    streamId: subscriptionStream,
    data: { ...invoiceIds, attempt: 1, etransferId: 'et_1', amountCents: 1500, attemptedAt: at },
  },
  InvoicePaid: {
    streamId: subscriptionStream,
    data: { ...invoiceIds, etransferId: 'et_1', amountCents: 1500, paidAt: at },
  },
  InvoicePaymentFailed: {
    streamId: subscriptionStream,
    data: {
      ...invoiceIds,
      attempt: 1,
      etransferId: 'et_1',
      reason: 'declined',
      failedAt: at,
      nextAttemptAt: at,
    },
  },
  InvoiceVoided: { streamId: subscriptionStream, data: { ...invoiceIds, voidedAt: at } },
  InvoiceMarkedUncollectible: {
    streamId: subscriptionStream,
    data: { ...invoiceIds, markedAt: at },
  },
  SubscriptionMarkedUnpaid: {
    streamId: subscriptionStream,
    data: { ...subscriptionIds, markedAt: at },
  },
  SubscriptionPaused: {
    streamId: subscriptionStream,
    data: { ...subscriptionIds, pausedBy: 'u-1', pausedAt: at },
  },
  SubscriptionResumed: {
    streamId: subscriptionStream,
    data: {
      ...subscriptionIds,
      resumedBy: 'u-1',
      resumedAt: at,
      nextPeriodIndex: 2,
      nextBillAt: at,
    },
  },
  SubscriptionCancellationScheduled: {
    streamId: subscriptionStream,
    data: { ...subscriptionIds, cancelAt: at, requestedBy: 'u-1', requestedAt: at },
  },
  SubscriptionCancelled: {
    streamId: subscriptionStream,
    data: { ...subscriptionIds, reason: 'requested', cancelledBy: 'u-1', cancelledAt: at },
  },
  SubscriptionPlanChangeScheduled: {
    streamId: subscriptionStream,
    data: {
      ...subscriptionIds,
      ...planTerms,
      fromPeriodIndex: 1,
      requestedBy: 'u-1',
      requestedAt: at,
    },
  },
  DocumentUploaded: {
    streamId: documentStream,
    data: {
      ...documentIds,
      ...documentFile,
      title: 'Subscription agreement',
      customerId: 'cu-1',
      roundId: null,
      uploadedBy: 'u-1',
      uploadedAt: at,
    },
  },
  DocumentVersionAdded: {
    streamId: documentStream,
    data: { ...documentIds, ...documentFile, version: 2, uploadedBy: 'u-1', uploadedAt: at },
  },
  DocumentRemoved: {
    streamId: documentStream,
    data: { ...documentIds, reason: null, removedBy: 'u-1', removedAt: at },
  },
  SignatureRequested: {
    streamId: signatureStream,
    data: {
      ...signatureIds,
      customerId: 'cu-1',
      roundId: 'r-1',
      documents: envelope,
      message: null,
      expiresAt: at,
      requestedBy: 'u-1',
      requestedAt: at,
    },
  },
  SignatureRequestViewed: {
    streamId: signatureStream,
    data: { ...signatureIds, ...signerSecrets, viewedAt: at },
  },
  SignatureRequestSigned: {
    streamId: signatureStream,
    data: {
      ...signatureIds,
      ...signerSecrets,
      signerName: 'Ada Lovelace',
      consent: true,
      documents: envelope,
      signedAt: at,
    },
  },
  SignatureRequestDeclined: {
    streamId: signatureStream,
    data: { ...signatureIds, ...signerSecrets, reason: null, declinedAt: at },
  },
  SignatureRequestExpired: { streamId: signatureStream, data: { ...signatureIds, expiredAt: at } },
  SignatureRequestCancelled: {
    streamId: signatureStream,
    data: { ...signatureIds, cancelledBy: 'u-1', cancelledAt: at },
  },
  BillingSettingsUpdated: {
    streamId: 'BillingSettings-c-1',
    data: {
      companyId,
      retryDays: [1, 3, 5],
      afterFinalFailure: 'unpaid',
      updatedBy: 'u-1',
      updatedAt: at,
    },
  },
  ShareClassCreated: {
    streamId: capTableStream,
    data: { ...shareClassIds, ...shareClassTerms, createdBy: 'u-1', createdAt: at },
  },
  ShareClassUpdated: {
    streamId: capTableStream,
    data: { ...shareClassIds, ...shareClassTerms, updatedBy: 'u-1', updatedAt: at },
  },
  SharesIssued: {
    streamId: capTableStream,
    data: {
      ...shareClassIds,
      issuanceId: 'iss_1',
      customerId: 'cu-1',
      shares: 1000,
      issuedAt: at,
      reason: 'Founder grant',
      issuedBy: 'u-1',
    },
  },
  SharesTransferred: {
    streamId: capTableStream,
    data: {
      ...shareClassIds,
      transferId: 'trf_1',
      fromCustomerId: 'cu-1',
      toCustomerId: 'cu-2',
      shares: 10,
      transferredAt: at,
      reason: 'Secondary sale',
      transferredBy: 'u-1',
    },
  },
  FundingRoundCreated: {
    streamId: roundStream,
    data: { ...roundIds, ...roundTerms, createdBy: 'u-1', createdAt: at },
  },
  FundingRoundUpdated: {
    streamId: roundStream,
    data: { ...roundIds, ...roundTerms, updatedBy: 'u-1', updatedAt: at },
  },
  FundingRoundOpened: {
    streamId: roundStream,
    data: { ...roundIds, openedBy: 'u-1', openedAt: at },
  },
  FundingRoundClosed: {
    streamId: roundStream,
    data: { ...roundIds, closedBy: 'u-1', closedAt: at },
  },
  FundingRoundCancelled: {
    streamId: roundStream,
    data: { ...roundIds, cancelledBy: 'u-1', cancelledAt: at },
  },
  RoundTokensReserved: {
    streamId: roundStream,
    data: {
      ...roundIds,
      orderId: 'ord_1',
      customerId: 'cu-1',
      tokens: 10,
      amountCents: 1000,
      reservedAt: at,
    },
  },
  RoundTokensReleased: {
    streamId: roundStream,
    data: { ...roundIds, orderId: 'ord_1', tokens: 10, reason: 'payment_failed', releasedAt: at },
  },
  RoundTokensSold: {
    streamId: roundStream,
    data: { ...roundIds, orderId: 'ord_1', tokens: 10, amountCents: 1000, soldAt: at },
  },
  FundingRoundHandleReserved: {
    streamId: 'FundingRoundHandle-c-1:seed',
    data: { companyId, handle: 'seed', roundId: 'rnd_1' },
  },
  FundingRoundHandleReleased: {
    streamId: 'FundingRoundHandle-c-1:seed',
    data: { companyId, handle: 'seed', roundId: 'rnd_1' },
  },
  TokenOrderPlaced: {
    streamId: orderStream,
    data: {
      ...orderIds,
      roundId: 'rnd_1',
      customerId: 'cu-1',
      shareClassId: 'shc_1',
      tokens: 10,
      tokenPriceCents: 100,
      amountCents: 1000,
      currency: 'CAD',
      walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      paymentMethod: 'terminal',
      terminalId: 'trm_1',
      paymentId: 'pay_1',
      placedBy: 'u-1',
      placedAt: at,
    },
  },
  TokenOrderPaymentRequested: {
    streamId: orderStream,
    data: { ...orderIds, paymentId: 'pay_1', requestedAt: at },
  },
  TokenOrderFundsReceived: {
    streamId: orderStream,
    data: { ...orderIds, paymentId: 'pay_1', amountCents: 1000, receivedAt: at },
  },
  TokenOrderPaymentFailed: {
    streamId: orderStream,
    data: { ...orderIds, paymentId: 'pay_1', reason: 'declined', failedAt: at },
  },
  TokenOrderDistributionStarted: {
    streamId: orderStream,
    data: { ...orderIds, attempt: 1, startedAt: at },
  },
  TokenOrderDistributionFailed: {
    streamId: orderStream,
    data: { ...orderIds, attempt: 1, error: 'node unavailable', held: false, failedAt: at },
  },
  TokenOrderTokensDistributed: {
    streamId: orderStream,
    data: {
      ...orderIds,
      transactionHash: `0x${'ab'.repeat(32)}`,
      blockNumber: 1234,
      walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      distributedAt: at,
    },
  },
  TokenOrderCompleted: {
    streamId: orderStream,
    data: { ...orderIds, issuanceId: 'iss_1', completedAt: at },
  },
  TokenOrderCancelled: {
    streamId: orderStream,
    data: { ...orderIds, cancelledBy: 'u-1', reason: 'Changed their mind', cancelledAt: at },
  },
  TokenOrderRefunded: {
    streamId: orderStream,
    data: { ...orderIds, paymentId: 'pay_1', refundId: 'rf_1', amountCents: 1000, refundedAt: at },
  },
};

function recorded(
  type: string,
  { streamId, data }: { streamId: string; data: unknown },
): RecordedEvent {
  return {
    id: `id-${type}`,
    type,
    data,
    metadata: {
      companyId,
      userId: 'u-1',
      correlationId: 'req-1',
      causationId: 'req-1',
      occurredAt: at,
      schemaVersion: 1,
    },
    streamId,
    revision: 4n,
    position: 9_007_199_254_740_993n,
    recordedAt: new Date('2025-03-01T10:00:00.250Z'),
  };
}

const sampleEntries = Object.entries(samples) as [
  InternalEventType,
  { streamId: string; data: unknown },
][];
const publishedTypes = sampleEntries
  .filter(([type]) => integrationMappings[type].published)
  .map(([type]) => type);

describe('integration mapping', () => {
  it('covers every event type the events package declares (every *EventSchemas export)', () => {
    const declared = Object.entries(allExports)
      .filter(([name]) => name.endsWith('EventSchemas'))
      .flatMap(([, schemas]) => Object.keys(schemas as object));
    expect(declared.length).toBeGreaterThan(10);
    expect(declared.filter((type) => integrationMapping(type) === undefined)).toEqual([]);
    expect(Object.keys(samples).sort()).toEqual([...new Set(declared)].sort());
  });

  it.each(sampleEntries)(
    '%s: no secret in the record, data exactly the public payload',
    (type, sample) => {
      const message = toIntegrationMessage(recorded(type, sample), 'issuer');
      const mapping = integrationMappings[type];
      if (!mapping.published) {
        expect(message).toBeUndefined();
        return;
      }
      expect(message).toBeDefined();
      const everything = JSON.stringify(message);
      for (const secret of [
        passwordHash,
        tokenId,
        'passwordHash',
        'passwordVersion',
        'tokenId',
        ...gatewaySecrets,
        'gatewayPaymentId',
        'gatewayEventId',
        'providerEventId',
        'providerTransferId',
        signerSecrets.ip,
        signerSecrets.userAgent,
      ]) {
        expect(everything).not.toContain(secret);
      }
      const envelope = integrationEnvelope.parse(JSON.parse(message?.value ?? ''));
      // Strict payload schemas: a field the contract does not name fails here.
      expect(() => mapping.payload.parse(envelope.data)).not.toThrow();
    },
  );

  it('builds the envelope and the same facts as headers, 64-bit numbers as strings', () => {
    const message = toIntegrationMessage(
      recorded('UserRegistered', samples.UserRegistered),
      'acme',
    );
    expect(message?.topic).toBe('acme.users.v1');
    expect(message?.key).toBe('User-u-1');
    const envelope = JSON.parse(message?.value ?? '');
    expect(envelope).toMatchObject({
      eventId: 'id-UserRegistered',
      type: 'UserRegistered',
      schemaVersion: 1,
      companyId,
      streamId: 'User-u-1',
      streamRevision: '4',
      position: '9007199254740993',
      occurredAt: at,
      recordedAt: '2025-03-01T10:00:00.250Z',
      correlationId: 'req-1',
      causationId: 'req-1',
    });
    for (const [field, header] of Object.entries(integrationHeaders)) {
      expect(message?.headers[header], header).toBe(String(envelope[field]));
    }
    expect(message?.headers['content-type']).toBe('application/json');
  });

  it("publishes the cap table on issuer.funding.v1, keyed by the company's cap table stream", () => {
    const message = toIntegrationMessage(recorded('SharesIssued', samples.SharesIssued), 'issuer');
    expect(message?.topic).toBe('issuer.funding.v1');
    expect(message?.key).toBe('CapTable-c-1');
    expect(JSON.parse(message?.value ?? '').data).toMatchObject({
      issuanceId: 'iss_1',
      shareClassId: 'shc_1',
      customerId: 'cu-1',
      shares: 1000,
    });
  });

  it('publishes payment events on issuer.payments.v1, keyed by the payment stream', () => {
    const message = toIntegrationMessage(
      recorded('PaymentCaptured', samples.PaymentCaptured),
      'issuer',
    );
    expect(message?.topic).toBe('issuer.payments.v1');
    expect(message?.key).toBe('Payment-pay_1');
    expect(JSON.parse(message?.value ?? '').data).toEqual({
      paymentId: 'pay_1',
      companyId,
      amountCents: 2500,
      currency: 'CAD',
      capturedAt: at,
    });
  });

  it('publishes e-transfer events on issuer.etransfers.v1, keyed by the e-transfer stream', () => {
    const message = toIntegrationMessage(
      recorded('EtransferDeposited', samples.EtransferDeposited),
      'issuer',
    );
    expect(message?.topic).toBe('issuer.etransfers.v1');
    expect(message?.key).toBe('ETransfer-et_1');
    expect(JSON.parse(message?.value ?? '').data).toEqual({
      etransferId: 'et_1',
      companyId,
      amountCents: 5000,
      currency: 'CAD',
      depositedAt: at,
    });
    expect(
      toIntegrationMessage(recorded('WalletDebited', samples.WalletDebited), 'issuer'),
    ).toBeUndefined();
  });

  it('names the invoice a billing request collects, and null for a request made by hand', () => {
    const data = (sample: Sample<'EtransferRequested'>) =>
      JSON.parse(
        toIntegrationMessage(recorded('EtransferRequested', sample), 'issuer')?.value ?? '',
      ).data;
    const billing = {
      ...samples.EtransferRequested,
      data: { ...samples.EtransferRequested.data, invoiceId: 'in_1_0' },
    };
    expect(data(billing)).toMatchObject({ etransferId: 'et_1', invoiceId: 'in_1_0' });
    expect(data(samples.EtransferRequested)).toMatchObject({ invoiceId: null });
  });

  it('refuses an event type without a mapping instead of publishing it raw', () => {
    const unknown = { ...recorded('UserRegistered', samples.UserRegistered), type: 'UserCloned' };
    expect(() => toIntegrationMessage(unknown, 'issuer')).toThrow(
      /UserCloned has no integration mapping/,
    );
  });
});

interface AsyncApiDocument {
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  components: {
    messages: Record<
      string,
      { name: string; payload: { allOf: [unknown, { properties: { data: { $ref: string } } }] } }
    >;
    schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
  };
  'x-unpublished-events': Record<string, string>;
}

const asyncApi = parse(
  readFileSync(new URL('../../asyncapi.yaml', import.meta.url), 'utf8'),
) as AsyncApiDocument;

describe('events/asyncapi.yaml', () => {
  it('documents every internal event type: a message, or listed as unpublished with a reason', () => {
    const documented = Object.keys(asyncApi.components.messages);
    const unpublished = Object.keys(asyncApi['x-unpublished-events']);
    expect(documented.sort()).toEqual([...publishedTypes].sort());
    expect(unpublished.sort()).toEqual(
      sampleEntries
        .map(([type]) => type)
        .filter((type) => !publishedTypes.includes(type))
        .sort(),
    );
  });

  it('has one channel per topic, each message on the channel of its stream category', () => {
    const addresses = Object.values(asyncApi.channels).map((channel) => channel.address);
    expect(addresses.sort()).toEqual(integrationTopics('issuer').sort());
    for (const type of publishedTypes) {
      const topic = toIntegrationMessage(recorded(type, samples[type]), 'issuer')?.topic;
      const channel = Object.values(asyncApi.channels).find((c) => c.address === topic);
      expect(channel?.messages[type]?.$ref, type).toBe(`#/components/messages/${type}`);
    }
  });

  it.each(publishedTypes)('%s: the documented data schema names the payload fields', (type) => {
    const mapping = integrationMappings[type];
    if (!mapping.published) throw new Error('unreachable');
    const dataRef = asyncApi.components.messages[type]?.payload.allOf[1].properties.data.$ref ?? '';
    const documented = asyncApi.components.schemas[dataRef.replace('#/components/schemas/', '')];
    const fromCode = z.toJSONSchema(mapping.payload) as { required?: string[]; properties: object };
    expect(Object.keys(documented?.properties ?? {}).sort()).toEqual(
      Object.keys(fromCode.properties).sort(),
    );
    expect([...(documented?.required ?? [])].sort()).toEqual([...(fromCode.required ?? [])].sort());
  });
});
