import type { APIRequestContext } from '@playwright/test';
import { expect } from '../fixtures';
import { apiToken, DEMO } from './session';

interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The newest message to `to` whose subject matches and whose id is not in `seen` (then added to it), read
 * from the outbox as the demo system_admin (GET /api/outbox; the e2e server has no SMTP_URL), waiting for
 * the background send.
 */
export async function mailed(
  request: APIRequestContext,
  to: string,
  subject: RegExp,
  seen: Set<string> = new Set(),
): Promise<Mail> {
  const token = await apiToken(request, DEMO.root);
  let found: Mail | undefined;
  await expect
    .poll(async () => {
      const res = await request.get('/api/outbox?per_page=100', { headers: { authorization: `Bearer ${token}` } });
      const mails = ((await res.json()) as { data: Mail[] }).data;
      found = mails.find((m) => m.to === to && subject.test(m.subject) && !seen.has(m.id));
      return found !== undefined;
    })
    .toBe(true);
  seen.add(found!.id);
  return found!;
}

/** The text of such a message (mailed). */
export async function mailedText(request: APIRequestContext, to: string, subject: RegExp): Promise<string> {
  return (await mailed(request, to, subject)).text;
}

/** The link in such a message (mailed), so a second message is told from the first by `seen`. */
export async function mailedLink(
  request: APIRequestContext,
  to: string,
  subject: RegExp,
  seen: Set<string> = new Set(),
): Promise<string> {
  const found = await mailed(request, to, subject, seen);
  const link = /https?:\/\/\S+\?token=\S+/.exec(found.text)?.[0];
  expect(link, found.text).toBeDefined();
  return link!;
}
