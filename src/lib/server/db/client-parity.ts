import type { Prisma, PrismaClient as SqliteClient } from './generated/client.ts';
import type { Prisma as PgPrisma, PrismaClient as PostgresClient } from './generated-pg/client.ts';

/**
 * The product's code is typed against the SQLite client (`Db`), and openPostgresDatabase hands
 * out the PostgreSQL client under that type. Both clients come from one schema, so their model
 * delegates (db.user, db.job, …) take the same calls and return the same rows; the PostgreSQL
 * ones accept a little more (`mode: 'insensitive'`, field references in `in`), never less. These
 * types make that a compile-time fact instead of a hope. For every model, both clients have the
 * same delegate methods, and for every operation Prisma's type map lists:
 * - every argument written against the SQLite client is a valid PostgreSQL argument, and
 * - the result (the row types) is the same on both.
 * If the schemas ever diverge, the constant below stops type-checking.
 */
type SqliteModels = Prisma.TypeMap['model'];
type PgModels = PgPrisma.TypeMap['model'];
type ModelName = Prisma.ModelName;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Ops<Models, M> = M extends keyof Models ? (Models[M] extends { operations: infer O } ? O : never) : never;
type OpFits<S, P> = S extends { args: infer SA; result: infer SR }
	? P extends { args: infer PA; result: infer PR }
		? [SA] extends [PA]
			? Same<SR, PR>
			: false
		: false
	: false;
type ModelFits<M extends ModelName> =
	Same<keyof Ops<SqliteModels, M>, keyof Ops<PgModels, M>> extends true
		? false extends {
				[Op in keyof Ops<SqliteModels, M>]: OpFits<
					Ops<SqliteModels, M>[Op],
					Ops<PgModels, M>[Op & keyof Ops<PgModels, M>]
				>;
			}[keyof Ops<SqliteModels, M>]
			? false
			: Same<
					MethodNames<SqliteClient[Uncapitalize<M>]>,
					MethodNames<PostgresClient[Uncapitalize<M> & keyof PostgresClient]>
				>
		: false;
type MethodNames<Delegate> = Extract<keyof Delegate, string>;

/** The models whose PostgreSQL delegate could not serve calls written against the SQLite one. */
type ModelsThatDiffer =
	{ [M in ModelName]: ModelFits<M> extends true ? never : M }[ModelName] | Exclude<PgPrisma.ModelName, ModelName>;

export const postgresClientServesDb: [ModelsThatDiffer] extends [never] ? true : false = true;

/** ModelFits across two models, so a test can show the comparison tells delegates apart. */
export type ModelServes<Given extends ModelName, Expected extends ModelName> = OpFits<
	Ops<SqliteModels, Expected>['findMany'],
	Ops<PgModels, Given>['findMany']
>;
