import type { cardsEnglish } from './messages.en';

/** Saved cards' texts in Turkish (`app.cards`). */
export const cardsTurkish: typeof cardsEnglish = {
  save_card: 'Kartı sonraki ödemeler için kaydet (müşteri onayladı)',
  save_card_help: 'Abonelikler daha sonra kart olmadan bu karttan tahsil edebilir.',
  collection_method: 'Tahsil yöntemi',
  method_etransfer: 'Her dönem e-transfer talebi',
  method_card: 'Kayıtlı kart',
  card: 'Kayıtlı kart',
  none: 'Bu müşterinin henüz kayıtlı kartı yok. “Kartı kaydet” işaretliyken bir ödeme alın, sonra kartla abone edin.',
  choose_customer: 'Kayıtlı kartları görmek için bir müşteri seçin.',
  load_failed: 'Kayıtlı kartlar yüklenemedi: %{message}',
  title: 'Kayıtlı kartlar',
  empty: 'Kayıtlı kart yok',
  remove: 'Kartı kaldır',
  remove_title: '%{card} kaldırılsın mı?',
  remove_content:
    'Bu kartı kullanan abonelikler artık ondan tahsilat yapamaz; onlar için başka bir kart veya e-transfer seçin. Bu işlem geri alınamaz.',
  saved_on: 'Kaydedildi: %{date}',
  removed: 'Kart kaldırıldı',
  off_session: 'Kayıtlı kart (kart olmadan tahsil edildi)',
  invoice_charged: 'Kayıtlı karttan tahsil edildi, ödeme',
  remove_failed: 'Kart kaldırılamadı: %{message}',
};
