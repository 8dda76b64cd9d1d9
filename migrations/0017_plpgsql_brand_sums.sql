-- brand_sums_add (0012) as a PL/pgSQL loop: the same sums, ~1 µs a call where the SQL
-- function (generate_series + array_agg) takes ~2.8 µs; every upsert of a rollup row with
-- per-brand arrays calls it once per array column (seeding a day of 500 answers: ~2,400 calls).
CREATE OR REPLACE FUNCTION "brand_sums_add"(a int[], b int[]) RETURNS int[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  n int := greatest(coalesce(array_length(a, 1), 0), coalesce(array_length(b, 1), 0));
  r int[] := array_fill(0, ARRAY[n]);
BEGIN
  FOR i IN 1..n LOOP
    r[i] := coalesce(a[i], 0) + coalesce(b[i], 0);
  END LOOP;
  RETURN r;
END $$;
