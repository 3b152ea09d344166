import type { APIRequestContext } from '@playwright/test';

/** A product of the market and a day and window with room for `places` more orders, read from the public API. */
export async function productAndSlot(api: APIRequestContext, companyId: string, places: number) {
  const products = (await (await api.get(`/api/companies/${companyId}/products?per_page=1`)).json()) as {
    data: { id: string; price: number }[];
  };
  const days = (
    (await (await api.get(`/api/companies/${companyId}/delivery-days?days=14`)).json()) as {
      data: { date: string; windows: { id: string | null; remaining: number | null }[] }[];
    }
  ).data;
  const roomy = (w: { remaining: number | null }) => w.remaining === null || w.remaining >= places;
  const day = days.find((d) => d.windows.some(roomy))!;
  return { product: products.data[0]!, day: day.date, window: day.windows.find(roomy)!.id };
}
