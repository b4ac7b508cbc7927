import { interpolate, localeNow, translateNow } from '../i18n/i18nProvider';

type Params = (match: RegExpMatchArray) => Record<string, string>;

const count: Params = (match) => ({ count: Number(match[1]).toLocaleString(localeNow()) });
const cad: Params = (match) => ({
  amount: Number(match[1]).toLocaleString(localeNow(), { style: 'currency', currency: 'CAD' }),
});

/**
 * The API's messages (the seed's, in English) that a reader of Turkish or Arabic meets most:
 * each with its words below, or (`validation.…`) the form checks' own under `app`. Any other
 * message is shown as the API wrote it.
 */
type Key = ServerKey | 'validation.max_length' | 'validation.min_length' | 'validation.email';

const known: [pattern: RegExp, key: Key, params?: Params][] = [
  [/^Max character length is (\d+)$/, 'validation.max_length', (m) => ({ max: m[1] ?? '' })],
  [/^Min character length is (\d+)$/, 'validation.min_length', (m) => ({ min: m[1] ?? '' })],
  [/^The email is already in use$/, 'email_taken'],
  [/^The company symbol is already in use$/, 'symbol_taken'],
  [/^This password is one of the 1,000 most common passwords: choose another$/, 'common_password'],
  [/^Too many failed logins: try again in (\d+) seconds$/, 'throttled', count],
  [/^Already in use$/, 'already_in_use'],
  [/^At most 2 decimals$/, 'two_decimals'],
  [/^Must be after opensAt$/, 'after_opens'],
  [/^At least minInvestmentCents$/, 'at_least_minimum'],
  [/^The minimum investment is CAD ([\d.]+)$/, 'minimum_investment', cad],
  [/^The maximum investment is below the minimum$/, 'maximum_below_minimum'],
  [/^The minimum investment is above the raise amount$/, 'minimum_above_raise'],
  [/^At least 1 whole token$/, 'whole_token'],
  [/^The round is sold out$/, 'sold_out'],
  [/^Only (\d+) tokens are left$/, 'tokens_left', count],
  [/^Invalid input$/, 'invalid_input'],
  [/^Please enter a valid email$/, 'validation.email'],
  [/^Customer may already exists - check email$/, 'customer_exists'],
  [/^The address checksum does not match: check its upper and lower case letters$/, 'checksum'],
  [/^An order of this round is paid for: close the round instead$/, 'round_paid_one'],
  [/^(\d+) orders of this round are paid for: close the round instead$/, 'round_paid', count],
  [/^An order of this round awaits payment: cancel it first$/, 'round_awaiting_one'],
  [/^(\d+) orders of this round await payment: cancel them first$/, 'round_awaiting', count],
];

/**
 * A message of the API in the reader's language when it is one the portal knows. English
 * readers get the API's own words: the seed's messages are the contract.
 */
export function localizeServerMessage(message: string): string {
  const locale = localeNow();
  if (locale === 'en') return message;
  for (const [pattern, key, params] of known) {
    const match = message.match(pattern);
    if (!match) continue;
    const options = params?.(match) ?? {};
    if (key.startsWith('validation.')) return translateNow(`app.${key}`, options);
    const text = words[locale as keyof typeof words]?.[key as ServerKey];
    return text ? interpolate(text, options) : message;
  }
  return message;
}

/** Loaded with this module, on the first failed call: they are not in the first screen's JS. */
const turkish = {
  email_taken: 'Bu e-posta zaten kullanılıyor',
  symbol_taken: 'Bu şirket sembolü zaten kullanılıyor',
  common_password: 'Bu şifre en yaygın 1.000 şifreden biri: başka bir şifre seçin',
  throttled: 'Çok fazla başarısız giriş: %{count} saniye sonra tekrar deneyin',
  already_in_use: 'Zaten kullanılıyor',
  two_decimals: 'En fazla 2 ondalık basamak',
  after_opens: 'Açılış tarihinden sonra olmalı',
  at_least_minimum: 'En az yatırımdan düşük olamaz',
  minimum_investment: 'En az yatırım %{amount}',
  maximum_below_minimum: 'En çok yatırım, en az yatırımdan düşük',
  minimum_above_raise: 'En az yatırım toplanacak tutardan yüksek',
  whole_token: 'En az 1 tam token',
  sold_out: 'Turdaki tokenler tükendi',
  tokens_left: 'Yalnızca %{count} token kaldı',
  invalid_input: 'Bu değer geçerli değil',
  customer_exists: 'Bu e-postayla bir müşteri zaten olabilir',
  checksum: 'Adresin sağlama toplamı tutmuyor: büyük ve küçük harflerini kontrol edin',
  round_paid_one: 'Bu turun bir siparişi ödendi: bunun yerine turu kapatın',
  round_paid: 'Bu turun %{count} siparişi ödendi: bunun yerine turu kapatın',
  round_awaiting_one: 'Bu turda ödeme bekleyen bir sipariş var: önce onu iptal edin',
  round_awaiting: 'Bu turda ödeme bekleyen %{count} sipariş var: önce onları iptal edin',
};
type ServerKey = keyof typeof turkish;

const arabic: Record<ServerKey, string> = {
  email_taken: 'هذا البريد الإلكتروني مستخدم بالفعل',
  symbol_taken: 'رمز الشركة هذا مستخدم بالفعل',
  common_password: 'كلمة المرور هذه من بين أشيع 1,000 كلمة مرور: اختر غيرها',
  throttled: 'محاولات دخول فاشلة كثيرة: أعد المحاولة بعد %{count} ثانية',
  already_in_use: 'مستخدم بالفعل',
  two_decimals: 'منزلتان عشريتان على الأكثر',
  after_opens: 'يجب أن يكون بعد تاريخ الافتتاح',
  at_least_minimum: 'يجب ألا يقل عن الحد الأدنى للاستثمار',
  minimum_investment: 'الحد الأدنى للاستثمار %{amount}',
  maximum_below_minimum: 'الحد الأقصى للاستثمار أقل من الحد الأدنى',
  minimum_above_raise: 'الحد الأدنى للاستثمار أعلى من المبلغ المستهدف',
  whole_token: 'رمز كامل واحد على الأقل',
  sold_out: 'نفدت رموز الجولة',
  tokens_left: 'لم يتبقَّ سوى %{count} رمز',
  invalid_input: 'هذه القيمة غير صالحة',
  customer_exists: 'قد يكون هناك عميل بهذا البريد الإلكتروني بالفعل',
  checksum: 'المجموع الاختباري للعنوان غير مطابق: تحقق من الأحرف الكبيرة والصغيرة',
  round_paid_one: 'طلب في هذه الجولة مدفوع: أغلق الجولة بدلًا من ذلك',
  round_paid: '%{count} طلبات في هذه الجولة مدفوعة: أغلق الجولة بدلًا من ذلك',
  round_awaiting_one: 'في هذه الجولة طلب ينتظر الدفع: ألغه أولًا',
  round_awaiting: 'في هذه الجولة %{count} طلبات تنتظر الدفع: ألغها أولًا',
};

const words = { tr: turkish, ar: arabic };
