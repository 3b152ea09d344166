ALTER TABLE "companies" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_slug_unique" UNIQUE("slug");--> statement-breakpoint
-- Hand-written: the bakeries made before slugs get one from their name, as packages/domain slugify makes it
-- (accents dropped, anything else a hyphen; nothing left: "panaderia"; a reserved label "-panaderia"), and
-- "-2", "-3"… for the second and later of a clash, oldest first.
WITH base AS (
  SELECT id, created_at,
    coalesce(nullif(left(trim(both '-' from regexp_replace(
      translate(lower(name), 'áàâäãéèêëíìîïóòôöõúùûüñç', 'aaaaaeeeeiiiiooooouuuunc'),
      '[^a-z0-9]+', '-', 'g')), 38), ''), 'panaderia') AS s
  FROM companies WHERE slug IS NULL
), safe AS (
  SELECT id, created_at,
    CASE WHEN trim(trailing '-' from s) IN ('www', 'api', 'app', 'admin', 'dashboard', 'mail', 'smtp', 'imap', 'ftp',
      'static', 'assets', 'files', 'cdn', 'status', 'help', 'soporte', 'hornada', 'localhost')
      THEN trim(trailing '-' from s) || '-panaderia' ELSE trim(trailing '-' from s) END AS s
  FROM base
), numbered AS (
  SELECT id, s, row_number() OVER (PARTITION BY s ORDER BY created_at, id) AS n FROM safe
)
UPDATE companies c SET slug = CASE WHEN n = 1 THEN numbered.s ELSE numbered.s || '-' || n END
FROM numbered WHERE numbered.id = c.id;
