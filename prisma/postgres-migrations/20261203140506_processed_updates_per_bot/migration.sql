-- AlterTable
ALTER TABLE "processed_updates" DROP CONSTRAINT "processed_updates_pkey",
ADD COLUMN     "bot_id" BIGINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "processed_updates_pkey" PRIMARY KEY ("bot_id", "update_id");
