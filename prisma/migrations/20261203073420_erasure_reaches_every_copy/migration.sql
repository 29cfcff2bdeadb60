-- AlterTable
ALTER TABLE "lead_repeats" ADD COLUMN "ping_message_id" BIGINT;

-- CreateTable
CREATE TABLE "retired_sticker_sets" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "telegram_user_id" BIGINT NOT NULL,
    "retired_at" TEXT NOT NULL,
    "reason" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "idx_retired_sticker_sets_user" ON "retired_sticker_sets"("telegram_user_id");

-- CreateIndex
CREATE INDEX "idx_retired_sticker_sets_at" ON "retired_sticker_sets"("retired_at");
