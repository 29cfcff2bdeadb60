-- AlterTable
ALTER TABLE "operators" ADD COLUMN "telegram_id" BIGINT;

-- CreateTable
CREATE TABLE "broadcasts" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "event_id" INTEGER,
    "text" TEXT NOT NULL,
    "image_path" TEXT,
    "image_file_id" TEXT,
    "button_text" TEXT,
    "button_url" TEXT,
    "state" TEXT NOT NULL DEFAULT 'draft',
    "send_at" TEXT,
    "audience_count" INTEGER,
    "created_by" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL,
    "started_at" TEXT,
    "finished_at" TEXT
);

-- CreateTable
CREATE TABLE "broadcast_recipients" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "broadcast_id" INTEGER NOT NULL,
    "telegram_user_id" BIGINT NOT NULL,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TEXT,
    "error" TEXT,
    "message_id" BIGINT,
    "sent_at" TEXT,
    "updated_at" TEXT NOT NULL,
    CONSTRAINT "broadcast_recipients_broadcast_id_fkey" FOREIGN KEY ("broadcast_id") REFERENCES "broadcasts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "broadcast_opt_outs" (
    "telegram_user_id" BIGINT NOT NULL PRIMARY KEY,
    "via" TEXT NOT NULL,
    "broadcast_id" INTEGER,
    "opted_out_at" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "idx_broadcasts_state" ON "broadcasts"("state", "send_at");

-- CreateIndex
CREATE INDEX "idx_broadcast_recipients_outbox" ON "broadcast_recipients"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "idx_broadcast_recipients_user" ON "broadcast_recipients"("telegram_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "idx_broadcast_recipients_guest" ON "broadcast_recipients"("broadcast_id", "telegram_user_id", "test");
