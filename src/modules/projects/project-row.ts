/** A project as the ownership check reads it (and the per-process cache keeps it). */
export interface ProjectRow {
  id: string;
  team_id: string;
  name: string;
  brand_name: string | null;
  website_url: string | null;
  domain: string | null;
  location: string | null;
  language: string | null;
  brand_aliases: string[];
  samples_per_run: number;
  status: string;
  created_at: Date;
}
