-- CreateTable
CREATE TABLE "admin_alerts" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "chat_id" BIGINT NOT NULL,
    "text" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TEXT,
    "created_at" TEXT NOT NULL,
    "sent_at" TEXT,
    "error" TEXT,
    "message_id" BIGINT
);

-- CreateIndex
CREATE INDEX "idx_admin_alerts_due" ON "admin_alerts"("state", "next_attempt_at");
