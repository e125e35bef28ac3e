#if SQLCipher
    import SyncTables
#endif
