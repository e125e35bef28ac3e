#!/bin/sh
# Nightly maintenance of an app store: push what is queued, then purge tables nobody pulled for 30 days.
# Usage: nightly-purge.sh STORE   (SYNCTABLES_SERVER, and SYNCTABLES_AUTH_TOKEN if needed, in the environment)
set -u
store="$1"

synctables push --store "$store" --quiet
case $? in
    0) ;;
    2) echo "push left failed operations; see: synctables errors list --store $store" >&2 ;;
    3) echo "server unreachable; purging stale tables anyway" >&2 ;;
    *) exit 1 ;;
esac

synctables purge --stale --older-than "${OLDER_THAN:-30d}" --store "$store" --json > purge-report.json
status=$?
if [ "$status" -eq 5 ]; then
    echo "kept stale tables with pending operations; see purge-report.json" >&2
elif [ "$status" -ne 0 ]; then
    exit "$status"
fi
