-- AlterTable
ALTER TABLE "worker_processes" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'worker';
