import type { PickersLocaleText } from '@mui/x-date-pickers/locales';
import { enUS, trTR } from '@mui/x-date-pickers/locales';
import type { PortalLocale } from '../i18n/locales';

type PickerTexts = Partial<PickersLocaleText>;

const timeViews = { hours: 'الساعات', minutes: 'الدقائق', seconds: 'الثواني', meridiem: 'الفترة' };
type TimeView = keyof typeof timeViews;

/** MUI X ships no Arabic: the texts a date or date-and-time picker shows or reads out. */
const arabic: PickerTexts = {
  previousMonth: 'الشهر السابق',
  nextMonth: 'الشهر التالي',
  openPreviousView: 'العرض السابق',
  openNextView: 'العرض التالي',
  calendarViewSwitchingButtonAriaLabel: (view) =>
    view === 'year'
      ? 'عرض السنوات مفتوح، انتقل إلى عرض التقويم'
      : 'عرض التقويم مفتوح، انتقل إلى عرض السنوات',
  cancelButtonLabel: 'إلغاء',
  clearButtonLabel: 'مسح',
  okButtonLabel: 'موافق',
  todayButtonLabel: 'اليوم',
  nextStepButtonLabel: 'التالي',
  datePickerToolbarTitle: 'اختر التاريخ',
  dateTimePickerToolbarTitle: 'اختر التاريخ والوقت',
  timePickerToolbarTitle: 'اختر الوقت',
  clockLabelText: (view, formattedTime) =>
    `اختر ${timeViews[view as TimeView]}. ${formattedTime ? `الوقت المحدد: ${formattedTime}` : 'لم يُحدَّد وقت'}`,
  hoursClockNumberText: (hours) => `${hours} ساعة`,
  minutesClockNumberText: (minutes) => `${minutes} دقيقة`,
  secondsClockNumberText: (seconds) => `${seconds} ثانية`,
  selectViewText: (view) => `اختر ${timeViews[view as TimeView]}`,
  calendarWeekNumberHeaderLabel: 'رقم الأسبوع',
  calendarWeekNumberHeaderText: '#',
  calendarWeekNumberAriaLabelText: (week) => `الأسبوع ${week}`,
  calendarWeekNumberText: (week) => `${week}`,
  openDatePickerDialogue: (date) =>
    date ? `اختر التاريخ، التاريخ المحدد: ${date}` : 'اختر التاريخ',
  openTimePickerDialogue: (time) => (time ? `اختر الوقت، الوقت المحدد: ${time}` : 'اختر الوقت'),
  fieldClearLabel: 'مسح',
  timeTableLabel: 'اختر الوقت',
  dateTableLabel: 'اختر التاريخ',
  fieldYearPlaceholder: (params) => 'س'.repeat(params.digitAmount),
  fieldMonthPlaceholder: (params) => (params.contentType === 'letter' ? 'ششش' : 'شش'),
  fieldDayPlaceholder: () => 'يي',
  fieldWeekDayPlaceholder: () => 'يي',
  fieldHoursPlaceholder: () => 'سا',
  fieldMinutesPlaceholder: () => 'دق',
  fieldSecondsPlaceholder: () => 'ثا',
  fieldMeridiemPlaceholder: () => 'ص/م',
  year: 'السنة',
  month: 'الشهر',
  day: 'اليوم',
  weekDay: 'يوم الأسبوع',
  hours: 'الساعات',
  minutes: 'الدقائق',
  seconds: 'الثواني',
  meridiem: 'الفترة',
  empty: 'فارغ',
};

const pickerTexts: Record<PortalLocale, PickerTexts> = {
  en: enUS.components.MuiLocalizationProvider.defaultProps.localeText,
  tr: trTR.components.MuiLocalizationProvider.defaultProps.localeText,
  ar: arabic,
};

export const pickerTextsOf = (locale: PortalLocale): PickerTexts => pickerTexts[locale];
