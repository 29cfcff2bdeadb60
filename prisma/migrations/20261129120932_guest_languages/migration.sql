-- CreateTable
CREATE TABLE "guest_languages" (
    "telegram_user_id" BIGINT NOT NULL PRIMARY KEY,
    "locale" TEXT NOT NULL,
    "updated_at" TEXT NOT NULL
);
