// The value model, timestamps and the filter expression tree are shared with the server and the
// command line; app code reaches them through `import SyncTables` alone.
@_exported import SyncTablesCore
