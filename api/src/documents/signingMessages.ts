/** The public signing page's words, in the portal's three languages. */
export const signingLanguages = ['en', 'tr', 'ar'] as const;
export type SigningLanguage = (typeof signingLanguages)[number];

const en = {
  languageName: 'English',
  title: 'Documents to sign',
  intro: (company: string) => `${company} asks you to review and sign these documents.`,
  open: 'Open',
  version: (n: number) => `Version ${n}`,
  fingerprint: 'SHA-256',
  expires: (at: string) => `This link expires on ${at}.`,
  nameLabel: 'Type your full name',
  nameRequired: 'Type your full name to sign',
  consentLabel:
    'I have reviewed these documents and agree to sign them electronically. My typed name is my signature.',
  consentRequired: 'Tick the box to give your consent',
  sign: 'Sign',
  declineLabel: 'Reason (optional)',
  decline: 'Decline',
  signed: (name: string, at: string) => `Signed by ${name} on ${at}.`,
  certificate: 'Download the signature certificate',
  declined: 'You declined to sign these documents.',
  expired: 'This signing link has expired. Ask the sender for a new one.',
  cancelled: 'The sender cancelled this request.',
  notFound: 'This signing link is not valid.',
  message: 'Message from the sender',
};
export type SigningMessages = typeof en;

const tr: SigningMessages = {
  languageName: 'Türkçe',
  title: 'İmzalanacak belgeler',
  intro: (company) => `${company} bu belgeleri incelemenizi ve imzalamanızı istiyor.`,
  open: 'Aç',
  version: (n) => `Sürüm ${n}`,
  fingerprint: 'SHA-256',
  expires: (at) => `Bu bağlantının süresi ${at} tarihinde doluyor.`,
  nameLabel: 'Adınızı ve soyadınızı yazın',
  nameRequired: 'İmzalamak için adınızı ve soyadınızı yazın',
  consentLabel:
    'Bu belgeleri inceledim ve elektronik olarak imzalamayı kabul ediyorum. Yazdığım ad imzamdır.',
  consentRequired: 'Onay vermek için kutuyu işaretleyin',
  sign: 'İmzala',
  declineLabel: 'Neden (isteğe bağlı)',
  decline: 'Reddet',
  signed: (name, at) => `${name} tarafından ${at} tarihinde imzalandı.`,
  certificate: 'İmza sertifikasını indir',
  declined: 'Bu belgeleri imzalamayı reddettiniz.',
  expired: 'Bu imza bağlantısının süresi doldu. Gönderenden yenisini isteyin.',
  cancelled: 'Gönderen bu isteği iptal etti.',
  notFound: 'Bu imza bağlantısı geçerli değil.',
  message: 'Gönderenin mesajı',
};

const ar: SigningMessages = {
  languageName: 'العربية',
  title: 'مستندات للتوقيع',
  intro: (company) => `تطلب منك ${company} مراجعة هذه المستندات وتوقيعها.`,
  open: 'فتح',
  version: (n) => `الإصدار ${n}`,
  fingerprint: 'SHA-256',
  expires: (at) => `تنتهي صلاحية هذا الرابط في ${at}.`,
  nameLabel: 'اكتب اسمك الكامل',
  nameRequired: 'اكتب اسمك الكامل للتوقيع',
  consentLabel: 'لقد راجعت هذه المستندات وأوافق على توقيعها إلكترونيًا. اسمي المكتوب هو توقيعي.',
  consentRequired: 'ضع علامة في المربع لإعطاء موافقتك',
  sign: 'توقيع',
  declineLabel: 'السبب (اختياري)',
  decline: 'رفض',
  signed: (name, at) => `وقّعها ${name} في ${at}.`,
  certificate: 'تنزيل شهادة التوقيع',
  declined: 'لقد رفضت توقيع هذه المستندات.',
  expired: 'انتهت صلاحية رابط التوقيع هذا. اطلب رابطًا جديدًا من المرسل.',
  cancelled: 'ألغى المرسل هذا الطلب.',
  notFound: 'رابط التوقيع هذا غير صالح.',
  message: 'رسالة من المرسل',
};

export const signingMessages: Record<SigningLanguage, SigningMessages> = { en, tr, ar };

/** `?lang=` first, then the browser's Accept-Language, then English. */
export function signingLanguage(query: string | undefined, acceptLanguage: string | undefined) {
  const known = (tag: string) => signingLanguages.find((language) => tag.startsWith(language));
  if (query) {
    const chosen = known(query.toLowerCase());
    if (chosen) return chosen;
  }
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.find((param) => param.trim().startsWith('q='));
      return { tag, weight: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.weight - a.weight);
  for (const { tag } of ranked) {
    const chosen = known(tag);
    if (chosen) return chosen;
  }
  return 'en';
}
