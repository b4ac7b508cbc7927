/**
 * Which customer field a CSV column fills when the upload maps it to none: the field of the same
 * name, or the field a common alias stands for. The import route and the admin UI's mapping step
 * both use it, so the UI pre-selects what the server would do. No imports: the UI bundles this
 * file, and it must not pull the server's schemas in (`csvColumns.test.ts` checks both).
 */

/** The customer profile fields (`customerProfileFields`), then the statuses and the star. */
export const importableFields = [
  'name',
  'lastName',
  'nickname',
  'avatar',
  'company',
  'jobTitle',
  'email',
  'phone',
  'address',
  'birthday',
  'notes',
  'tags',
  'roundId',
  'tokenPrice',
  'tokenBalance',
  'percentageOwned',
  'walletAddress',
  'leadStatus',
  'investorStatus',
  'starred',
] as const;
export type ImportableField = (typeof importableFields)[number];

/** A header as compared: lower case, accents and everything but letters and digits taken out. */
const normalized = (header: string) =>
  header
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ı/g, 'i')
    .replace(/[^\p{L}\p{N}]/gu, '');

/** Headers people give a column: common English ones, and the admin UI's labels in Turkish and Arabic. */
const aliases = new Map<string, ImportableField>(
  (
    [
      ['First name', 'name'],
      ['Given name', 'name'],
      ['Surname', 'lastName'],
      ['Family name', 'lastName'],
      ['Email address', 'email'],
      ['Mail', 'email'],
      ['Phone number', 'phone'],
      ['Mobile', 'phone'],
      ['Telephone', 'phone'],
      ['Title', 'jobTitle'],
      ['Position', 'jobTitle'],
      ['Organization', 'company'],
      ['Wallet', 'walletAddress'],
      ['Date of birth', 'birthday'],
      // Turkish
      ['Ad', 'name'],
      ['İsim', 'name'],
      ['Soyad', 'lastName'],
      ['Soyadı', 'lastName'],
      ['Takma ad', 'nickname'],
      ['Profil resmi', 'avatar'],
      ['Şirket', 'company'],
      ['Unvan', 'jobTitle'],
      ['E-posta', 'email'],
      ['E-posta adresi', 'email'],
      ['Telefon', 'phone'],
      ['Adres', 'address'],
      ['Doğum tarihi', 'birthday'],
      ['Notlar', 'notes'],
      ['Etiketler', 'tags'],
      ['Fonlama turu', 'roundId'],
      ['Token fiyatı', 'tokenPrice'],
      ['Token bakiyesi', 'tokenBalance'],
      ['Sahiplik (%)', 'percentageOwned'],
      ['Cüzdan adresi', 'walletAddress'],
      ['Potansiyel durumu', 'leadStatus'],
      ['Yatırımcı durumu', 'investorStatus'],
      ['Yıldızlı', 'starred'],
      // Arabic
      ['الاسم', 'name'],
      ['الاسم الأول', 'name'],
      ['اسم العائلة', 'lastName'],
      ['اللقب', 'nickname'],
      ['الصورة الرمزية', 'avatar'],
      ['الشركة', 'company'],
      ['المسمّى الوظيفي', 'jobTitle'],
      ['البريد الإلكتروني', 'email'],
      ['الهاتف', 'phone'],
      ['العنوان', 'address'],
      ['تاريخ الميلاد', 'birthday'],
      ['ملاحظات', 'notes'],
      ['الوسوم', 'tags'],
      ['جولة التمويل', 'roundId'],
      ['سعر الرمز', 'tokenPrice'],
      ['رصيد الرموز', 'tokenBalance'],
      ['نسبة الملكية (%)', 'percentageOwned'],
      ['عنوان المحفظة', 'walletAddress'],
      ['حالة العميل المحتمل', 'leadStatus'],
      ['حالة المستثمر', 'investorStatus'],
      ['مميّز بنجمة', 'starred'],
    ] as const
  ).map(([header, field]) => [normalized(header), field]),
);

/** `First Name` → name, `E-mail` → email, `Favourite colour` → undefined. */
export function fieldOfHeader(header: string): ImportableField | undefined {
  const key = normalized(header);
  return importableFields.find((field) => field.toLowerCase() === key) ?? aliases.get(key);
}
