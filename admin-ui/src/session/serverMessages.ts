import { localeNow, translateNow } from '../i18n/i18nProvider';

type Params = (match: RegExpMatchArray) => Record<string, string>;

const count: Params = (match) => ({ count: Number(match[1]).toLocaleString(localeNow()) });
const cad: Params = (match) => ({
  amount: Number(match[1]).toLocaleString(localeNow(), { style: 'currency', currency: 'CAD' }),
});

/**
 * The API's messages (the seed's, in English) that a reader of Turkish or Arabic meets most,
 * each with its key under `app`. Any other message is shown as the API wrote it.
 */
const known: [pattern: RegExp, key: string, params?: Params][] = [
  [/^Max character length is (\d+)$/, 'validation.max_length', (m) => ({ max: m[1] ?? '' })],
  [/^Min character length is (\d+)$/, 'validation.min_length', (m) => ({ min: m[1] ?? '' })],
  [/^The email is already in use$/, 'server.email_taken'],
  [/^The company symbol is already in use$/, 'server.symbol_taken'],
  [
    /^This password is one of the 1,000 most common passwords: choose another$/,
    'server.common_password',
  ],
  [/^Too many failed logins: try again in (\d+) seconds$/, 'server.throttled', count],
  [/^Already in use$/, 'server.already_in_use'],
  [/^At most 2 decimals$/, 'server.two_decimals'],
  [/^Must be after opensAt$/, 'server.after_opens'],
  [/^At least minInvestmentCents$/, 'server.at_least_minimum'],
  [/^The minimum investment is CAD ([\d.]+)$/, 'server.minimum_investment', cad],
  [/^The maximum investment is below the minimum$/, 'server.maximum_below_minimum'],
  [/^The minimum investment is above the raise amount$/, 'server.minimum_above_raise'],
  [/^At least 1 whole token$/, 'server.whole_token'],
  [/^The round is sold out$/, 'server.sold_out'],
  [/^Only (\d+) tokens are left$/, 'server.tokens_left', count],
  [/^Invalid input$/, 'server.invalid_input'],
  [/^Please enter a valid email$/, 'validation.email'],
  [/^Customer may already exists - check email$/, 'server.customer_exists'],
  [
    /^The address checksum does not match: check its upper and lower case letters$/,
    'server.checksum',
  ],
  [/^An order of this round is paid for: close the round instead$/, 'server.round_paid_one'],
  [
    /^(\d+) orders of this round are paid for: close the round instead$/,
    'server.round_paid',
    count,
  ],
  [/^An order of this round awaits payment: cancel it first$/, 'server.round_awaiting_one'],
  [/^(\d+) orders of this round await payment: cancel them first$/, 'server.round_awaiting', count],
];

/**
 * A message of the API in the reader's language when it is one the portal knows. English
 * readers get the API's own words: the seed's messages are the contract.
 */
export function localizeServerMessage(message: string): string {
  if (localeNow() === 'en') return message;
  for (const [pattern, key, params] of known) {
    const match = message.match(pattern);
    if (match) return translateNow(`app.${key}`, params?.(match));
  }
  return message;
}
