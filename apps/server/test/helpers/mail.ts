import { json, type TestApp } from './app';

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The outbox as a system_admin reads it (GET /api/outbox), newest first. */
export async function outboxOf(t: TestApp, adminToken: string): Promise<OutboxMail[]> {
  const res = await t.call({ method: 'GET', url: '/api/outbox?per_page=100', token: adminToken });
  if (res.statusCode !== 200) throw new Error(`outbox: ${res.statusCode} ${res.body}`);
  return json<{ data: OutboxMail[] }>(res).data;
}

/**
 * A message to `to` whose subject matches and whose id is not in `seen` (then added to it), waiting for
 * the background send (up to 5 s).
 */
export async function waitForMail(
  t: TestApp,
  adminToken: string,
  to: string,
  subject: RegExp,
  seen = new Set<string>(),
): Promise<OutboxMail> {
  for (let i = 0; i < 100; i++) {
    const mail = (await outboxOf(t, adminToken)).find((m) => m.to === to && subject.test(m.subject) && !seen.has(m.id));
    if (mail) seen.add(mail.id);
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

/** The single-use code of the link in a message's text. */
export function tokenIn(text: string, page: string): string {
  const m = new RegExp(`${page}\\?token=([^\\s"&<]+)`).exec(text);
  if (!m) throw new Error(`no ${page} link in: ${text}`);
  return decodeURIComponent(m[1]!);
}
