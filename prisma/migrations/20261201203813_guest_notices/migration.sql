-- AlterTable
ALTER TABLE "job_messages" ADD COLUMN "edited_at" TEXT;
ALTER TABLE "job_messages" ADD COLUMN "shown_text" TEXT;

-- CreateTable
CREATE TABLE "guest_notices" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "job_id" INTEGER NOT NULL,
    "telegram_user_id" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "text_key" TEXT NOT NULL,
    "text_params" TEXT,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TEXT NOT NULL,
    "claimed_until" TEXT,
    "message_id" BIGINT,
    "error" TEXT,
    "created_at" TEXT NOT NULL,
    "sent_at" TEXT
);

-- CreateIndex
CREATE INDEX "idx_guest_notices_due" ON "guest_notices"("state", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "uq_guest_notices_job_kind" ON "guest_notices"("job_id", "kind");
