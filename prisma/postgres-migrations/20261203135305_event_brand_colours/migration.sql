-- AlterTable
ALTER TABLE "events" ADD COLUMN     "brand_accent" TEXT,
ADD COLUMN     "brand_primary" TEXT;
