import { eq, sql } from 'drizzle-orm';
import { slugCandidate, slugify } from '@hornada/domain';
import type { DbOrTx } from '../../db';
import { companies } from '../../db/schema';

/** Namespace of the advisory locks on one slug base, so two bakeries of one name wait for each other. */
const SLUG_LOCK = 727277;

/**
 * Gives a company the first free slug its name makes ("horno-de-carlos", then "-2", "-3"…; docs/design.md §4). Two
 * bakeries of one name created together take their turns on the base's lock, so the second reads the
 * first's slug and takes the next number instead of failing on the unique index.
 */
export async function assignSlug(tx: DbOrTx, companyId: string, name: string): Promise<string> {
  const base = slugify(name);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${SLUG_LOCK}, hashtext(${base}))`);
  const taken = await tx
    .select({ slug: companies.slug })
    .from(companies)
    .where(sql`${companies.slug} = ${base} OR ${companies.slug} ~ ${`^${base}-[0-9]+$`}`);
  const used = new Set(taken.map((r) => r.slug));
  let n = 1;
  while (used.has(slugCandidate(base, n))) n++;
  const slug = slugCandidate(base, n);
  await tx.update(companies).set({ slug }).where(eq(companies.id, companyId));
  return slug;
}
