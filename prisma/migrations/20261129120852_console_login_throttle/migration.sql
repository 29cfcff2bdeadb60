-- CreateTable
CREATE TABLE "login_throttle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "first_failure_at" TEXT NOT NULL,
    "last_failure_at" TEXT NOT NULL,
    "blocked_until" TEXT
);
