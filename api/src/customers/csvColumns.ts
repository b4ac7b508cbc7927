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

/** Headers people give a column, lower-cased with everything but letters and digits taken out. */
const aliases = new Map<string, ImportableField>([
  ['firstname', 'name'],
  ['givenname', 'name'],
  ['surname', 'lastName'],
  ['familyname', 'lastName'],
  ['emailaddress', 'email'],
  ['mail', 'email'],
  ['phonenumber', 'phone'],
  ['mobile', 'phone'],
  ['telephone', 'phone'],
  ['title', 'jobTitle'],
  ['position', 'jobTitle'],
  ['organization', 'company'],
  ['wallet', 'walletAddress'],
  ['dateofbirth', 'birthday'],
]);

const normalized = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** `First Name` → name, `E-mail` → email, `Favourite colour` → undefined. */
export function fieldOfHeader(header: string): ImportableField | undefined {
  const key = normalized(header);
  return importableFields.find((field) => field.toLowerCase() === key) ?? aliases.get(key);
}
