#!/usr/bin/env bash
# Recall and remember of two checkouts, alternating, in the same minutes (issue 11's
# "make bench before and after, on the same machine in the same hour").
#
#   git worktree add /tmp/before 05180c8 && (cd /tmp/before && make install-dev)
#   bench/before_after.sh /tmp/before [ROUNDS]
#
# Each checkout gets its own database of 1,000,000 generate_memories rows of the same shape
# (this checkout's bench_recall runs with --no-embeddings: code older than the vector
# table generates none), then bench_remember; the figures are the RESULT lines.
set -euo pipefail
before=$(cd "$1" && pwd)
after=$(cd "$(dirname "$0")/.." && pwd)
rounds=${2:-2}
export DEBUG=true
db() { echo "postgres://postgres@127.0.0.1:5432/$1"; }
for name in mc_before_after_old mc_before_after_new; do
  createdb -h 127.0.0.1 -U postgres "$name" 2>/dev/null || true
done
(cd "$before" && DATABASE_URL=$(db mc_before_after_old) .venv/bin/python manage.py migrate --noinput -v 0)
(cd "$after" && DATABASE_URL=$(db mc_before_after_new) .venv/bin/python manage.py migrate --noinput -v 0)
recall_flags=$(grep -q -- '--embeddings' "$after/bench/bench_recall.py" && echo --no-embeddings || true)
for round in $(seq "$rounds"); do
  echo "== round $round, $(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg)"
  (cd "$before" && DATABASE_URL=$(db mc_before_after_old) .venv/bin/python bench/bench_recall.py --iterations 300 | sed 's/^RESULT/RESULT\tbefore/' | grep '^RESULT')
  (cd "$after" && DATABASE_URL=$(db mc_before_after_new) .venv/bin/python bench/bench_recall.py $recall_flags --iterations 300 | sed 's/^RESULT/RESULT\tafter/' | grep '^RESULT')
  (cd "$before" && DATABASE_URL=$(db mc_before_after_old) .venv/bin/python bench/bench_remember.py --writes 2000 | sed 's/^RESULT/RESULT\tbefore/' | grep '^RESULT')
  (cd "$after" && DATABASE_URL=$(db mc_before_after_new) .venv/bin/python bench/bench_remember.py --writes 2000 | sed 's/^RESULT/RESULT\tafter/' | grep '^RESULT')
done
