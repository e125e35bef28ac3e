import SyncTables
