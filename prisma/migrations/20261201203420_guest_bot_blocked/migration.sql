-- AlterTable
ALTER TABLE "users" ADD COLUMN "bot_blocked_at" TEXT;
