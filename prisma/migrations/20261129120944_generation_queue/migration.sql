-- CreateTable
CREATE TABLE "job_leases" (
    "job_id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "worker_id" TEXT NOT NULL,
    "claimed_at" TEXT NOT NULL,
    "heartbeat_at" TEXT NOT NULL,
    "lease_expires_at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "job_progress" (
    "job_id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "stage" TEXT NOT NULL,
    "detail" TEXT,
    "stage_started_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,
    "not_before" TEXT,
    "stickers_ready_at" TEXT,
    "link_chat_id" BIGINT,
    "link_message_id" BIGINT,
    "stage_log" TEXT
);

-- CreateIndex
CREATE INDEX "idx_job_leases_expires" ON "job_leases"("lease_expires_at");

-- CreateIndex
CREATE INDEX "idx_job_progress_not_before" ON "job_progress"("not_before");
