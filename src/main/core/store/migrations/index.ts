// The migrations, in order. Listed by hand: a bundle cannot scan a folder.
import createTables from './0001_create_tables';
import indexActiveRuns from './0002_index_active_runs';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  { version: 1, name: '0001_create_tables', sql: createTables },
  { version: 2, name: '0002_index_active_runs', sql: indexActiveRuns },
];
