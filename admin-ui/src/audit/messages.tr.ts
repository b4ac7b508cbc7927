import { eventNamesTurkish, resourceNamesTurkish } from './eventNames.tr';
import type { auditEnglish } from './messages.en';

/** The audit log's texts in Turkish (`app.audit`). */
export const auditTurkish: typeof auditEnglish = {
  title: 'Denetim kaydı',
  totals: 'Olaylar: %{count}',
  empty: 'Henüz olay yok',
  no_match: 'Bu filtrelere uyan olay yok',
  load_failed: 'Denetim kaydı yüklenemedi: %{message}',
  export: 'CSV dışa aktar',
  export_failed: 'Dışa aktarma başarısız: yeniden deneyin',
  system: 'Sistem',
  operator: 'Platform operatörü',
  system_reasons: {
    tokenOrder: 'Token siparişi %{id}',
    signatureRequest: 'İmza talebi %{id}',
  },
  fields: {
    at: 'Ne zaman',
    actor: 'Kim',
    actor_id: 'Kullanıcı kimliği',
    event_type: 'Olay',
    resource: 'Kayıt türü',
    record_id: 'Kayıt kimliği',
    amount: 'Tutar',
    record: 'Kayıt',
    reason: 'Neden',
    from: 'Başlangıç',
    to: 'Bitiş',
    event_id: 'Olay kimliği',
    details: 'Ayrıntılar',
  },
  events: eventNamesTurkish,
  resources: resourceNamesTurkish,
};
