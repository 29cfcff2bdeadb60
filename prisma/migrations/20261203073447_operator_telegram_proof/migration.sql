-- AlterTable
ALTER TABLE "operators" ADD COLUMN "telegram_verified_at" TEXT;

-- CreateTable
CREATE TABLE "operator_link_codes" (
    "operator_id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "code_hash" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "expires_at" TEXT NOT NULL,
    CONSTRAINT "operator_link_codes_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "operator_link_codes_code_hash_key" ON "operator_link_codes"("code_hash");
