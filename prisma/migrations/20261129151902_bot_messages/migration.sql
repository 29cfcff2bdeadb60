-- CreateTable
CREATE TABLE "bot_messages" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "telegram_user_id" BIGINT NOT NULL,
    "direction" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT,
    "message_id" BIGINT,
    "at" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "message_activity" (
    "day" TEXT NOT NULL PRIMARY KEY,
    "incoming" INTEGER NOT NULL DEFAULT 0,
    "outgoing" INTEGER NOT NULL DEFAULT 0,
    "guests" INTEGER NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "idx_bot_messages_user_at" ON "bot_messages"("telegram_user_id", "at");

-- CreateIndex
CREATE INDEX "idx_bot_messages_at" ON "bot_messages"("at");
