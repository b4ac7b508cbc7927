import { randomUUID } from 'node:crypto';
import {
  type BillingSettingsEvent,
  type CollectionFailureReason,
  type CollectionMethod,
  type FinalFailureAction,
  invalid,
  notFound,
  type SubscriptionEvent,
  streamCategories,
  streamName,
} from '@issuer/events';
import { customerDecider } from '../customers/businessLogic';
import { customerStream } from '../customers/customerCommands';
import { type AppDependencies, foldStream } from '../http';
import { type CommandOrigin, runOnStream, type StreamOutcome } from '../http/streamCommands';
import { usableCard } from '../paymentMethods/paymentMethodCommands';
import { defaultCardId } from '../paymentMethods/paymentMethodsProjection';
import {
  type BillingSettings,
  defaultBillingSettings,
  type SubscriptionCommand,
  subscriptionDecider,
} from './businessLogic';
import { isPlan, type Plan, type PlanCommand, type PlanTermsInput, planDecider } from './plan';
import { isSubscription, type Subscription } from './subscription';

/**
 * The write operations of recurring billing, shared by the routes, the billing scheduler and the
 * collection process manager. Each append carries its stream's expected revision (runOnStream).
 */
export type BillingDeps = Pick<AppDependencies, 'store' | 'clock'>;
/** Subscribing by card also reads the saved cards read model (the customer's default card). */
export type SubscribeDeps = BillingDeps & Pick<AppDependencies, 'pool'>;
type Actor = { companyId: string; actorId: string } & CommandOrigin;

export const planStream = (planId: string) => streamName(streamCategories.plan, planId);
export const subscriptionStream = (subscriptionId: string) =>
  streamName(streamCategories.subscription, subscriptionId);
export const billingSettingsStream = (companyId: string) =>
  streamName(streamCategories.billingSettings, companyId);

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const isPlanId = (id: string) => new RegExp(`^plan_${uuid}$`).test(id);
export const isSubscriptionId = (id: string) => new RegExp(`^sub_${uuid}$`).test(id);

const originOf = (actor: Actor): CommandOrigin => ({ ...actor, userId: actor.actorId });

export async function loadPlan(deps: Pick<BillingDeps, 'store'>, planId: string): Promise<Plan> {
  if (!isPlanId(planId)) return { status: 'none' };
  return (await foldStream(deps.store, planStream(planId), planDecider)).state;
}

/** The company's plan, or 404 (missing, or another company's; in the path or in a body). */
export async function ownPlan(deps: BillingDeps, companyId: string, planId: string) {
  const plan = await loadPlan(deps, planId);
  if (!isPlan(plan) || plan.companyId !== companyId) throw notFound('Plan');
  return plan;
}

export async function loadSubscription(
  deps: Pick<BillingDeps, 'store'>,
  subscriptionId: string,
): Promise<Subscription> {
  if (!isSubscriptionId(subscriptionId)) return { status: 'none' };
  return (await foldStream(deps.store, subscriptionStream(subscriptionId), subscriptionDecider))
    .state;
}

function runOnPlan(deps: BillingDeps, planId: string, command: PlanCommand, origin: CommandOrigin) {
  return runOnStream(
    deps,
    planStream(planId),
    planDecider,
    command,
    (state) => (isPlan(state) ? state.companyId : undefined),
    origin,
  );
}

export function runOnSubscription(
  deps: BillingDeps,
  subscriptionId: string,
  command: SubscriptionCommand,
  origin: CommandOrigin = {},
): Promise<StreamOutcome<Subscription, SubscriptionEvent>> {
  return runOnStream(
    deps,
    subscriptionStream(subscriptionId),
    subscriptionDecider,
    command,
    (state) => (isSubscription(state) ? state.companyId : undefined),
    origin,
  );
}

export async function createPlan(deps: BillingDeps, input: Actor & PlanTermsInput) {
  const planId = `plan_${randomUUID()}`;
  const outcome = await runOnPlan(
    deps,
    planId,
    { type: 'CreatePlan', data: { ...input, planId, now: deps.clock() } },
    originOf(input),
  );
  return { planId, position: outcome.position };
}

export async function updatePlan(
  deps: BillingDeps,
  input: Actor & PlanTermsInput & { planId: string },
) {
  await ownPlan(deps, input.companyId, input.planId);
  return runOnPlan(
    deps,
    input.planId,
    { type: 'UpdatePlan', data: { ...input, now: deps.clock() } },
    originOf(input),
  );
}

export async function archivePlan(deps: BillingDeps, input: Actor & { planId: string }) {
  await ownPlan(deps, input.companyId, input.planId);
  return runOnPlan(
    deps,
    input.planId,
    { type: 'ArchivePlan', data: { ...input, now: deps.clock() } },
    originOf(input),
  );
}

async function checkCustomer(deps: BillingDeps, companyId: string, customerId: string) {
  const { state } = await foldStream(deps.store, customerStream(customerId), customerDecider);
  if (state.status !== 'active' || state.companyId !== companyId) throw notFound('Customer');
}

export interface SubscribeInput extends Actor {
  customerId: string;
  planId: string;
  collectionMethod: CollectionMethod;
  /** With `card`: the customer's saved card; null: the newest one they saved. */
  paymentMethodId?: string | null;
  startAt: Date | null;
}

export async function subscribe(deps: SubscribeDeps, input: SubscribeInput) {
  await checkCustomer(deps, input.companyId, input.customerId);
  const plan = await ownPlan(deps, input.companyId, input.planId);
  const paymentMethodId =
    input.collectionMethod === 'card'
      ? (
          await usableCard(
            deps,
            {
              companyId: input.companyId,
              customerId: input.customerId,
              paymentMethodId: input.paymentMethodId ?? null,
            },
            () => defaultCardId(deps.pool, input.companyId, input.customerId),
          )
        ).paymentMethodId
      : (input.paymentMethodId ?? null);
  const subscriptionId = `sub_${randomUUID()}`;
  const outcome = await runOnSubscription(
    deps,
    subscriptionId,
    {
      type: 'CreateSubscription',
      data: { ...input, paymentMethodId, subscriptionId, plan, now: deps.clock() },
    },
    originOf(input),
  );
  return { subscriptionId, position: outcome.position };
}

async function ownSubscription(deps: BillingDeps, companyId: string, subscriptionId: string) {
  const state = await loadSubscription(deps, subscriptionId);
  if (!isSubscription(state) || state.companyId !== companyId) throw notFound('Subscription');
  return state;
}

export type SubscriptionAction =
  | { type: 'PauseSubscription' }
  | { type: 'ResumeSubscription' }
  | { type: 'CancelSubscription'; atPeriodEnd: boolean }
  | { type: 'ChangePlan'; planId: string };

export async function actOnSubscription(
  deps: BillingDeps,
  input: Actor & { subscriptionId: string; action: SubscriptionAction },
) {
  await ownSubscription(deps, input.companyId, input.subscriptionId);
  const base = { companyId: input.companyId, actorId: input.actorId, now: deps.clock() };
  const { action } = input;
  const command: SubscriptionCommand =
    action.type === 'CancelSubscription'
      ? { type: action.type, data: { ...base, atPeriodEnd: action.atPeriodEnd } }
      : action.type === 'ChangePlan'
        ? {
            type: action.type,
            data: { ...base, plan: await ownPlan(deps, input.companyId, action.planId) },
          }
        : { type: action.type, data: base };
  return runOnSubscription(deps, input.subscriptionId, command, originOf(input));
}

/** The billing timer's command: whatever is due now. */
export function billDue(deps: BillingDeps, subscriptionId: string) {
  return runOnSubscription(deps, subscriptionId, { type: 'BillDue', data: { now: deps.clock() } });
}

export async function recordCollectionOutcome(
  deps: BillingDeps,
  input: {
    subscriptionId: string;
    /** The attempt's e-transfer, or its card payment. */
    collectionId: string;
    outcome: { paid: true } | { paid: false; reason: CollectionFailureReason };
  },
  origin: CommandOrigin = {},
) {
  const subscription = await loadSubscription(deps, input.subscriptionId);
  if (!isSubscription(subscription)) return undefined;
  const settings = await loadBillingSettings(deps, subscription.companyId);
  return runOnSubscription(
    deps,
    input.subscriptionId,
    {
      type: 'RecordCollectionOutcome',
      data: {
        collectionId: input.collectionId,
        outcome: input.outcome,
        settings,
        now: deps.clock(),
      },
    },
    origin,
  );
}

// Billing settings: a tiny stream per company, folded here.
type SettingsState = BillingSettings & { exists: boolean };
const settingsDecider = {
  initialState: (): SettingsState => ({ ...defaultBillingSettings, exists: false }),
  evolve: (_state: SettingsState, event: BillingSettingsEvent): SettingsState => ({
    retryDays: event.data.retryDays,
    afterFinalFailure: event.data.afterFinalFailure,
    exists: true,
  }),
  decide: (
    command: { companyId: string; actorId: string; now: Date } & BillingSettings,
    state: SettingsState,
  ): BillingSettingsEvent[] => {
    const days = command.retryDays;
    const ascending = days.every((value, i) => i === 0 || value > (days[i - 1] ?? 0));
    if (
      days.length > 8 ||
      !ascending ||
      days.some((d) => !Number.isInteger(d) || d < 1 || d > 60)
    ) {
      const text = 'At most 8 whole numbers of days from 1 to 60, each larger than the one before';
      throw invalid(text, { retryDays: text });
    }
    const same =
      state.exists &&
      state.afterFinalFailure === command.afterFinalFailure &&
      state.retryDays.join() === days.join();
    if (same) return [];
    return [
      {
        type: 'BillingSettingsUpdated',
        data: {
          companyId: command.companyId,
          retryDays: [...days],
          afterFinalFailure: command.afterFinalFailure,
          updatedBy: command.actorId,
          updatedAt: command.now.toISOString(),
        },
      },
    ];
  },
};

export async function loadBillingSettings(
  deps: Pick<BillingDeps, 'store'>,
  companyId: string,
): Promise<BillingSettings> {
  const { state } = await foldStream(deps.store, billingSettingsStream(companyId), settingsDecider);
  return { retryDays: state.retryDays, afterFinalFailure: state.afterFinalFailure };
}

export function updateBillingSettings(
  deps: BillingDeps,
  input: Actor & { retryDays: number[]; afterFinalFailure: FinalFailureAction },
) {
  return runOnStream(
    deps,
    billingSettingsStream(input.companyId),
    settingsDecider,
    { ...input, now: deps.clock() },
    () => input.companyId,
    originOf(input),
  );
}
