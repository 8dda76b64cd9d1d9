-- Issue 30: the model-based analysis (ANALYSIS_MODEL, src/analysis/README.md). What the model
-- judged of an answer, {by, bands: {brand id: band}, tokens}, or null when the lexicon alone
-- read it: which analyser produced its figures, and what a re-analysis reuses instead of
-- asking the model again. A column without a default: no partition is rewritten.
ALTER TABLE "responses" ADD COLUMN "model_judgement" jsonb;
