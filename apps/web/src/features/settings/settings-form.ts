import { PAYMENT_METHODS } from '@hornada/domain/constants';
import { SettingsInput, type Settings } from '@hornada/domain/schemas/settings';
import type { ImageValue } from '../../components/forms/image-fields';
import { optionalText, optionalWhole, parseDecimal, parseWhole, textOf } from '../../components/forms/form-values';

/** The settings as the form holds them: the API's field names (so its problems land on the fields), text inputs. */
export interface SettingsForm {
  marketName: string;
  logo: ImageValue | null;
  phone: string;
  whatsapp: string;
  address: string;
  location: { lat: string; lng: string };
  timeZone: string;
  deliveryFee: string;
  freeDeliveryFrom: string;
  minimumOrder: string;
  orderLeadHours: string;
  productionLeadDays: string;
  deliveryDays: string[];
  deliveryWindows: { id: string; label: string; start: string; end: string; capacity: string }[];
  blackoutDates: string[];
  pickupEnabled: boolean;
  paymentMethods: string[];
  transferInstructions: string;
  newOrderEmail: string;
  privacyPolicy: string;
  targetMargin: string;
  /** Custom domains, one a line. */
  domains: string;
}

export const toSettingsForm = (s: Settings): SettingsForm => ({
  marketName: s.marketName,
  logo: s.logo,
  phone: textOf(s.phone),
  whatsapp: textOf(s.whatsapp),
  address: textOf(s.address),
  location: { lat: textOf(s.location?.lat), lng: textOf(s.location?.lng) },
  timeZone: s.timeZone,
  deliveryFee: textOf(s.deliveryFee),
  freeDeliveryFrom: textOf(s.freeDeliveryFrom),
  minimumOrder: textOf(s.minimumOrder),
  orderLeadHours: textOf(s.orderLeadHours),
  productionLeadDays: textOf(s.productionLeadDays),
  deliveryDays: s.deliveryDays.map(String),
  deliveryWindows: s.deliveryWindows.map((w) => ({ ...w, capacity: textOf(w.capacity) })),
  blackoutDates: [...s.blackoutDates].sort(),
  pickupEnabled: s.pickupEnabled,
  paymentMethods: [...s.paymentMethods],
  transferInstructions: textOf(s.transferInstructions),
  newOrderEmail: textOf(s.newOrderEmail),
  privacyPolicy: textOf(s.privacyPolicy),
  targetMargin: textOf(s.targetMargin),
  domains: (s.domains ?? []).join('\n'),
});

/** The bakery's public face (show-bakery / update-bakery): what customers see of it. */
export const BAKERY_FIELDS = ['marketName', 'logo', 'phone', 'whatsapp', 'address', 'location'] as const;

const bakeryInput = (f: SettingsForm) => ({
  marketName: f.marketName,
  logo: f.logo ? { path: f.logo.path, alt: f.logo.alt.trim() } : null,
  phone: optionalText(f.phone),
  whatsapp: optionalText(f.whatsapp),
  address: optionalText(f.address),
  // Both empty is no pin; one of them empty is a problem under it.
  location:
    f.location.lat.trim() === '' && f.location.lng.trim() === ''
      ? null
      : { lat: parseDecimal(f.location.lat), lng: parseDecimal(f.location.lng) },
});

/** The PATCH body of the bakery's page. */
export const toBakeryInput = bakeryInput;
export const BakeryInput = SettingsInput.pick({
  marketName: true,
  logo: true,
  phone: true,
  whatsapp: true,
  address: true,
  location: true,
});

/** The PATCH body of the settings screen: every field. */
export const toSettingsInput = (f: SettingsForm) => ({
  ...bakeryInput(f),
  timeZone: f.timeZone,
  deliveryFee: parseWhole(f.deliveryFee),
  freeDeliveryFrom: optionalWhole(f.freeDeliveryFrom),
  minimumOrder: parseWhole(f.minimumOrder),
  orderLeadHours: parseWhole(f.orderLeadHours),
  productionLeadDays: parseWhole(f.productionLeadDays),
  deliveryDays: f.deliveryDays.map(Number).sort((a, b) => a - b),
  deliveryWindows: f.deliveryWindows.map((w) => ({ ...w, label: w.label.trim(), capacity: optionalWhole(w.capacity) })),
  blackoutDates: [...f.blackoutDates].sort(),
  pickupEnabled: f.pickupEnabled,
  paymentMethods: PAYMENT_METHODS.filter((m) => f.paymentMethods.includes(m)),
  transferInstructions: optionalText(f.transferInstructions),
  newOrderEmail: optionalText(f.newOrderEmail),
  privacyPolicy: optionalText(f.privacyPolicy),
  targetMargin: parseDecimal(f.targetMargin),
  // One a line (commas and spaces also part them); blank lines are nothing.
  domains: f.domains.split(/[\s,]+/).filter(Boolean),
});

export const EMPTY_SETTINGS_FORM: SettingsForm = toSettingsForm({
  ...SettingsInput.parse({ marketName: '-' }),
  marketName: '',
  companyId: '',
  updatedAt: '',
});

/** Days of the week as the schema numbers them (0 is Sunday), in a Colombian week's order. */
export const WEEKDAYS = [
  { value: '1', label: 'Lunes' },
  { value: '2', label: 'Martes' },
  { value: '3', label: 'Miércoles' },
  { value: '4', label: 'Jueves' },
  { value: '5', label: 'Viernes' },
  { value: '6', label: 'Sábado' },
  { value: '0', label: 'Domingo' },
] as const;

export const PAYMENT_LABELS_ES: Record<(typeof PAYMENT_METHODS)[number], string> = {
  cash: 'Efectivo (contra entrega)',
  transfer: 'Transferencia',
  online: 'Pago en línea',
};
