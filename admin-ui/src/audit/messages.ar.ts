import { eventNamesArabic, resourceNamesArabic } from './eventNames.ar';
import type { auditEnglish } from './messages.en';

/** The audit log's texts in Arabic (`app.audit`). */
export const auditArabic: typeof auditEnglish = {
  title: 'سجل التدقيق',
  totals: 'الأحداث: %{count}',
  empty: 'لا توجد أحداث بعد',
  no_match: 'لا توجد أحداث تطابق هذه المرشحات',
  load_failed: 'تعذر تحميل سجل التدقيق: %{message}',
  export: 'تصدير CSV',
  export_failed: 'فشل التصدير: حاول مرة أخرى',
  system: 'النظام',
  operator: 'مشغّل المنصة',
  system_reasons: {
    tokenOrder: 'طلب الرموز %{id}',
    signatureRequest: 'طلب التوقيع %{id}',
  },
  fields: {
    at: 'متى',
    actor: 'من',
    actor_id: 'معرّف المستخدم',
    event_type: 'الحدث',
    resource: 'نوع السجل',
    record_id: 'معرّف السجل',
    amount: 'المبلغ',
    record: 'السجل',
    reason: 'السبب',
    from: 'من تاريخ',
    to: 'حتى',
    event_id: 'معرّف الحدث',
    details: 'التفاصيل',
  },
  events: eventNamesArabic,
  resources: resourceNamesArabic,
};
