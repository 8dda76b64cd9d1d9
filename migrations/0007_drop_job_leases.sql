DROP TABLE "job_leases" CASCADE;--> statement-breakpoint
DROP TABLE "worker_processes" CASCADE;