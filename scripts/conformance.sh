#!/bin/sh
# npm run conformance: the shared R7RS-small conformance suite against ./bin/nodwyn.
#
# The suite is not part of this repository. It is found at $NODWYN_CONFORMANCE
# (a directory holding its `run` script), else beside the checkout
# (../shared/conformance), else one level further up (../../shared/conformance,
# for a worktree). Arguments are passed to the suite's runner (section files).
here=$(cd "$(dirname "$0")/.." && pwd)
for dir in "${NODWYN_CONFORMANCE:-}" "$here/../shared/conformance" "$here/../../shared/conformance"; do
  if [ -n "$dir" ] && [ -x "$dir/run" ]; then
    cd "$here" || exit 2
    exec "$dir/run" "$here/bin/nodwyn run -I {lib} {file}" "$@"
  fi
done
cat >&2 <<MSG
npm run conformance: the R7RS conformance suite was not found.
It is not part of this repository: it lives in the shared folder beside it
(../shared/conformance, a directory with a 'run' script and the section files).
Put it there, or point at it with NODWYN_CONFORMANCE=/path/to/conformance npm run conformance.
Looked in:${NODWYN_CONFORMANCE:+ $NODWYN_CONFORMANCE,} $here/../shared/conformance, $here/../../shared/conformance
MSG
exit 2
