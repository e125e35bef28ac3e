import Hummingbird
import SyncTables
