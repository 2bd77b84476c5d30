// The migrations, in order. Listed by hand: a bundle cannot scan a folder.
import createTables from './0001_create_tables';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [{ version: 1, name: '0001_create_tables', sql: createTables }];
