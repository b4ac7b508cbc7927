import type { cardsEnglish } from './messages.en';

/** Saved cards' texts in Arabic (`app.cards`). */
export const cardsArabic: typeof cardsEnglish = {
  save_card: 'حفظ البطاقة للمدفوعات القادمة (وافق العميل)',
  save_card_help: 'يمكن للاشتراكات بعدها تحصيل المبلغ منها دون حضور البطاقة.',
  collection_method: 'طريقة التحصيل',
  method_etransfer: 'طلب تحويل إلكتروني في كل فترة',
  method_card: 'بطاقة محفوظة',
  card: 'البطاقة المحفوظة',
  none: 'لا توجد بطاقة محفوظة لهذا العميل بعد. خذ دفعة مع تحديد «حفظ البطاقة»، ثم اشترك بالبطاقة.',
  choose_customer: 'اختر عميلًا لرؤية بطاقاته المحفوظة.',
  load_failed: 'تعذر تحميل البطاقات المحفوظة: %{message}',
  title: 'البطاقات المحفوظة',
  empty: 'لا توجد بطاقات محفوظة',
  remove: 'إزالة البطاقة',
  remove_title: 'إزالة %{card}؟',
  remove_content:
    'تتوقف الاشتراكات التي تُحصّل من هذه البطاقة عن التحصيل منها؛ اختر لها بطاقة أخرى أو التحويلات الإلكترونية. لا يمكن التراجع عن ذلك.',
  saved_on: 'حُفظت في %{date}',
  removed: 'تمت إزالة البطاقة',
  off_session: 'بطاقة محفوظة (حُصّلت دون حضور البطاقة)',
  invoice_charged: 'حُصّلت من البطاقة المحفوظة، الدفعة',
  remove_failed: 'تعذرت إزالة البطاقة: %{message}',
};
