/**
 * A text as a search compares it, whatever the language and the case typed: lower case, the
 * Turkish dotted and dotless i both plain i (JavaScript lowers "İ" to "i̇" and leaves "ı"), and
 * accents dropped, so "islem", "işlem" and "İŞLEM" all find "İşlemler".
 */
export function foldForSearch(text: string): string {
  return text.replace(/[İIı]/g, 'i').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}
