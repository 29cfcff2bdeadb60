-- AlterTable
ALTER TABLE "events" ADD COLUMN     "animated_stickers" INTEGER NOT NULL DEFAULT 3;
