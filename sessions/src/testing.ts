// For tests that need a real PostgreSQL server: this package's own, and other packages' run on its stores.
export { POSTGRES_URL_VARIABLE, startPostgresCluster, type PostgresCluster } from "./postgres-cluster.js";
