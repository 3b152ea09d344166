import { MAX_PER_PAGE } from '@hornada/domain/constants';
import type { B2bClient, B2bClientInput } from '@hornada/domain/schemas/b2b';
import type {
  Ingredient,
  IngredientInput,
  Product,
  ProductInput,
  Recipe,
  RecipeInput,
} from '@hornada/domain/schemas/catalogue';
import type {
  CheckoutBody,
  DeliveryDaysQuery,
  GuestOrder,
  OfferedDay,
  Order,
  OrderInput,
  SuspiciousOrder,
} from '@hornada/domain/schemas/orders';
import type { StandingOrder, StandingOrderInput } from '@hornada/domain/schemas/standing-orders';
import type { User } from '@hornada/domain/schemas/users';
import type { z } from 'zod';
import { http, type ListResponse, type Query, type RequestOptions } from './http';
import { companyPath } from './paths';
import type { DeliveryDay, DeliveryQuery, RouteInput } from '@hornada/domain/delivery';
import type {
  CompaniesQuery,
  CompanyChoice,
  EmailVerified,
  LinkInfo,
  MeBody,
  VerifyEmailInput,
} from '@hornada/domain/identity';
import type { OutboxMail, OutboxQuery } from '@hornada/domain/outbox';
import type { ProductionDay, ProductionQuery } from '@hornada/domain/production';
import type { UnpaidParty } from '@hornada/domain/receivables';
import type { SalesReport, SalesReportQuery } from '@hornada/domain/sales-report';
import type {
  ShopFace,
  ShopSetup,
  InvitationSent,
  PaymentCheck,
  PaymentCheckQuery,
  PaymentLink,
  RouteOrdered,
  VerificationResent,
} from '@hornada/domain/schemas/answers';
import type { CapacityWarning, Settings, SettingsInput, WindowBooking } from '@hornada/domain/schemas/settings';

/**
 * The web's typed API client: a company's resources through the generic routes (`records`), and the operations
 * beyond them (`endpoints`), each typed with the answer the
 * server declares for it (packages/domain's schemas; docs/api.md): the one place in the web where those
 * answers get their types.
 */

/** The signed-in user's own record (GET and PATCH /api/me). */
export type Me = User & { uid: string };

const link = (token: string, ...rest: string[]) =>
  ['/orders/link', encodeURIComponent(token), ...rest.map(encodeURIComponent)].join('/');

export const endpoints = {
  /** The company's settings: the whole document for staff, its public part for anyone else. */
  settings: (companyId: string, signal?: AbortSignal) =>
    http.get<Settings>(companyPath(companyId, 'settings'), { signal }),
  /** Changes the fields given; the answer carries the saved document and the capacity warnings beside it. */
  async patchSettings(companyId: string, body: Partial<SettingsInput>) {
    const answer = (await http.send('PATCH', companyPath(companyId, 'settings'), body)) as {
      data: Settings;
      warnings?: CapacityWarning[];
    };
    return { settings: answer.data, warnings: answer.warnings ?? [] };
  },
  windowBookings: (companyId: string, signal?: AbortSignal) =>
    http.get<WindowBooking[]>(companyPath(companyId, 'settings', 'window-bookings'), { signal }),
  deliveryDays: (companyId: string, days: number, signal?: AbortSignal) =>
    http.get<OfferedDay[]>(companyPath(companyId, 'delivery-days'), {
      query: { days } satisfies DeliveryDaysQuery,
      signal,
    }),
  salesReport: (companyId: string, range: Pick<SalesReportQuery, 'from' | 'to'>, signal?: AbortSignal) =>
    http.get<SalesReport>(companyPath(companyId, 'reports', 'sales'), { query: range, signal }),
  /** A new bakery's setup checklist and its shop's address. */
  setup: (companyId: string, signal?: AbortSignal) => http.get<ShopSetup>(companyPath(companyId, 'setup'), { signal }),
  /** The bakery's name, shop address and logo, for the back office's header. */
  shopFace: (companyId: string, signal?: AbortSignal) => http.get<ShopFace>(companyPath(companyId, 'shop'), { signal }),
  /** The open orders that look like a prank or a mistake, each with why. */
  suspiciousOrders: (companyId: string, signal?: AbortSignal) =>
    http.get<SuspiciousOrder[]>(companyPath(companyId, 'suspicious-orders'), { signal }),
  unpaid: (companyId: string, signal?: AbortSignal) =>
    http.get<UnpaidParty[]>(companyPath(companyId, 'reports', 'unpaid'), { signal }),
  production: (companyId: string, query: ProductionQuery, signal?: AbortSignal) =>
    http.get<ProductionDay>(companyPath(companyId, 'production'), { query, signal }),
  deliveries: (companyId: string, date: string, signal?: AbortSignal) =>
    http.get<DeliveryDay>(companyPath(companyId, 'deliveries'), { query: { date } satisfies DeliveryQuery, signal }),
  /** Puts a driver's stops of a day in order (an Idempotency-Key in `options`). */
  orderRoute: (companyId: string, body: RouteInput, options: RequestOptions) =>
    http.post<RouteOrdered>(companyPath(companyId, 'deliveries', 'route'), body, options),
  resendInvitation: (companyId: string, userId: string) =>
    http.post<InvitationSent>(companyPath(companyId, 'users', userId, 'invitation')),

  /** A page of the mails kept unsent (a system admin's). */
  outbox: (query: OutboxQuery, signal?: AbortSignal) => http.list<OutboxMail>('/outbox', { query, signal }),
  me: (signal?: AbortSignal) => http.get<Me>('/me', { signal }),
  updateMe: (body: MeBody) => http.patch<Me>('/me', body),
  /** The bakeries a system admin may act on, by name (the company switcher). */
  companies: (query: Pick<CompaniesQuery, 'search' | 'per_page'>, signal?: AbortSignal) =>
    http.list<CompanyChoice>('/companies', { query, signal }),
  /** Who made the account or the invitation a link belongs to (what the page then says). */
  linkInfo: (token: string) => http.post<LinkInfo>('/identity/link-info', { token }),
  /** Confirms an e-mail address with its link (`accept`: keep the bakery that made the account). */
  verifyEmail: (body: VerifyEmailInput) => http.post<EmailVerified>('/identity/verify-email', body),
  resendVerification: () => http.post<VerificationResent>('/identity/verify-email/resend'),

  /** A cart checked out by its holder (headers: the holder's and an Idempotency-Key): the order, its link. */
  checkout: (cartId: string, body: CheckoutBody, options: RequestOptions) =>
    http.post<GuestOrder & { accessToken: string; payment?: PaymentLink | null }>(
      `/carts/${encodeURIComponent(cartId)}/checkout`,
      body,
      options,
    ),
  orderByLink: (token: string) => http.get<GuestOrder>(link(token)),
  /** The server asks the gateway about transaction `id`; nothing else of the query is sent. */
  paymentCheck: (token: string, id: string | null) =>
    http.get<PaymentCheck>(link(token, 'payment'), id ? { query: { id } satisfies PaymentCheckQuery } : {}),
  retryPayment: (token: string) => http.post<PaymentLink>(link(token, 'payment'), {}),
};

/**
 * The record each resource answers with and the body it takes, from packages/domain's schemas (the ones the
 * server validates and answers with): the one place in the web where a resource's answer gets its type.
 */
export interface ResourceRecords {
  products: Product;
  ingredients: Ingredient;
  recipes: Recipe;
  orders: Order;
  users: User;
  standingOrders: StandingOrder;
  b2bClients: B2bClient;
}

export interface ResourceWrites {
  products: z.input<typeof ProductInput>;
  ingredients: z.input<typeof IngredientInput>;
  recipes: z.input<typeof RecipeInput>;
  orders: z.input<typeof OrderInput>;
  standingOrders: z.input<typeof StandingOrderInput>;
  b2bClients: z.input<typeof B2bClientInput>;
}

export type RecordName = keyof ResourceRecords;
/** The body a resource takes (users are written through the people screens' own forms, not here). */
type WriteOf<N extends RecordName> = N extends keyof ResourceWrites ? ResourceWrites[N] : never;

/** A company's resource through the generic routes (docs/api.md): typed by its name. */
export function records<N extends RecordName>(companyId: string, name: N) {
  type R = ResourceRecords[N];
  const one = (id: string) => companyPath(companyId, name, id);
  const all = companyPath(companyId, name);
  return {
    list: (options?: RequestOptions): Promise<ListResponse<R>> => http.list<R>(all, options),
    /** Every page of the list (a bakery's lists are small; pages keep each answer within the API's limit). */
    async every(query: Query, signal?: AbortSignal): Promise<R[]> {
      const out: R[] = [];
      for (let page = 1; ; page++) {
        const res = await http.list<R>(all, { query: { ...query, per_page: MAX_PER_PAGE, page }, signal });
        out.push(...res.items);
        if (res.items.length < MAX_PER_PAGE || out.length >= res.total) return out;
      }
    },
    get: (id: string, options?: RequestOptions): Promise<R> => http.get<R>(one(id), options),
    create: (body: WriteOf<N>, options?: RequestOptions): Promise<R> => http.post<R>(all, body, options),
    update: (id: string, body: WriteOf<N>): Promise<R> => http.put<R>(one(id), body),
    patch: (id: string, body: Partial<WriteOf<N>>): Promise<R> => http.patch<R>(one(id), body),
    remove: (id: string): Promise<R> => http.delete<R>(one(id)),
  };
}
