-- AlterTable
ALTER TABLE "sticker_redraws" ADD COLUMN "claimed_by" TEXT;
