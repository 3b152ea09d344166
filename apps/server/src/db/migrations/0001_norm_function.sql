-- The normalised text key of docs/design.md §3 (mirrors normaliseKey in packages/domain/src/text.ts):
-- ASCII lower case under COLLATE "C" (the same on every server, whatever its default collation),
-- then Spanish and common Latin accents mapped to plain letters. Sorts compare it with COLLATE "C".
CREATE OR REPLACE FUNCTION hornada_norm(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT translate(lower(value COLLATE "C"), 'ÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇáàâäãéèêëíìîïóòôöõúùûüñç', 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc') COLLATE "C" $$;
