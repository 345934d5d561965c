#!/usr/bin/env bash
# scripts/timed.sh STAGE...: `make test`'s stages, made one after the
# other, each followed by the time it took, and all of them at the end; it
# stops at the first that fails. MAKE is the make that called it.
set -uo pipefail

took() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

times="" all=$SECONDS
for stage in "$@"; do
  start=$SECONDS
  "${MAKE:-make}" --no-print-directory "$stage"
  status=$?
  times+="${times:+, }$stage $(took $((SECONDS - start)))"
  if [ "$status" -ne 0 ]; then
    echo "make test: $stage failed ($times)" >&2
    exit "$status"
  fi
  echo "make test: $stage took $(took $((SECONDS - start)))"
done
echo "make test: $times; $(took $((SECONDS - all))) in all"
