-- CreateTable
CREATE TABLE "guest_bot_blocks" (
    "telegram_user_id" BIGINT NOT NULL PRIMARY KEY,
    "blocked_at" TEXT NOT NULL
);
