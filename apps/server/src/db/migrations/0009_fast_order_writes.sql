-- Two writes in one round trip each (docs/design.md §3 and §5; bench:orders): the locks they take are held until
-- commit, so every round trip saved inside them is time no other writer waits.

-- The change-log step of every write: the log lock (ordering positions by commit), the log rows, and
-- the one NOTIFY, in one call.
CREATE FUNCTION hornada_log_changes(
  p_lock bigint,
  p_channel text,
  p_company text,
  p_resources text[],
  p_changes jsonb[],
  p_at timestamptz
) RETURNS SETOF bigint LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(p_lock);
  RETURN QUERY
    INSERT INTO change_log (company_id, resource, changes, created_at)
    SELECT p_company, r.resource, r.changes, p_at
    FROM unnest(p_resources, p_changes) WITH ORDINALITY AS r(resource, changes, n)
    ORDER BY r.n
    RETURNING position;
  PERFORM pg_notify(p_channel, p_company);
END
$$;
--> statement-breakpoint
-- The next order number of a company, taken inside the order's INSERT: its counter row is locked
-- from there until commit, not from before the insert.
CREATE FUNCTION hornada_next_order_number(p_company text, p_first integer) RETURNS integer
LANGUAGE sql AS $$
  INSERT INTO order_counters (company_id, last) VALUES (p_company, p_first)
  ON CONFLICT (company_id) DO UPDATE SET last = order_counters.last + 1
  RETURNING last;
$$;
