-- domain_sums_add (0015) as a PL/pgSQL merge of two sorted lists: the same entries, in about
-- half the time (bench/README.md, "Merging a domain day"). A domain day's row holds every
-- domain the engine's answers cited that day, and each batch of a collection run (a few
-- answers) merges its entries into it: the SQL function split both lists into rows, grouped,
-- sorted and aggregated them again. The lists the application and this function write are
-- sorted by domain number, each domain once; a list that is not (a hand-written row, a
-- removal's entries) is summed by the SQL function itself, renamed domain_sums_add_any, so
-- every input gives what it gave before. The aggregate domain_sums_agg (0031) names its
-- function by identity, so it is made again over the merge.
DROP AGGREGATE "domain_sums_agg"(text);
--> statement-breakpoint
ALTER FUNCTION "domain_sums_add"(text, text) RENAME TO "domain_sums_add_any";
--> statement-breakpoint
CREATE FUNCTION "domain_sums_add"(a text, b text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  x int[] := coalesce(string_to_array(a, ',')::int[], '{}');
  y int[] := coalesce(string_to_array(b, ',')::int[], '{}');
  nx int := coalesce(array_length(x, 1), 0);
  ny int := coalesce(array_length(y, 1), 0);
  r int[] := '{}';
  m int := 0;
  i int := 1;
  j int := 1;
  k int;
  last int;
  c int;
  n int;
  rs int;
  u int;
BEGIN
  IF nx % 5 <> 0 OR ny % 5 <> 0 THEN
    RETURN domain_sums_add_any(a, b);
  END IF;
  LOOP
    IF i <= nx AND (j > ny OR x[i] < y[j]) THEN
      k := x[i]; c := x[i + 1]; n := x[i + 2]; rs := x[i + 3]; u := x[i + 4];
      i := i + 5;
    ELSIF j <= ny AND (i > nx OR y[j] < x[i]) THEN
      k := y[j]; c := y[j + 1]; n := y[j + 2]; rs := y[j + 3]; u := y[j + 4];
      j := j + 5;
    ELSIF i <= nx THEN
      k := x[i]; c := least(x[i + 1], y[j + 1]); n := x[i + 2] + y[j + 2]; rs := x[i + 3] + y[j + 3]; u := x[i + 4] + y[j + 4];
      i := i + 5;
      j := j + 5;
    ELSE
      EXIT;
    END IF;
    -- the merge comes out in ascending order only when each list was in it, each domain once
    IF k <= last THEN
      RETURN domain_sums_add_any(a, b);
    END IF;
    last := k;
    IF n > 0 THEN
      r[m + 1] := k; r[m + 2] := c; r[m + 3] := n; r[m + 4] := rs; r[m + 5] := u;
      m := m + 5;
    END IF;
  END LOOP;
  RETURN array_to_string(r, ',');
END $$;
--> statement-breakpoint
CREATE AGGREGATE "domain_sums_agg"(text) (SFUNC = "domain_sums_add", STYPE = text, INITCOND = '');
