-- AlterTable
ALTER TABLE "events" ADD COLUMN "brand_accent" TEXT;
ALTER TABLE "events" ADD COLUMN "brand_primary" TEXT;
