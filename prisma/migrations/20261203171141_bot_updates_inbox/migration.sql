-- CreateTable
CREATE TABLE "bot_updates" (
    "bot_id" BIGINT NOT NULL,
    "update_id" BIGINT NOT NULL,
    "chat_key" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "received_at" TEXT NOT NULL,
    "handled_at" TEXT,

    PRIMARY KEY ("bot_id", "update_id")
);

-- CreateIndex
CREATE INDEX "idx_bot_updates_waiting" ON "bot_updates"("bot_id", "handled_at");
