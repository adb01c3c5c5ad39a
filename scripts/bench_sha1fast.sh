#!/usr/bin/env bash
# sha1fast against the tools it replaces, with hyperfine: one 512 MiB file
# (coreutils sha1sum, openssl dgst -sha1, sha1cdsum; pinned to one core
# with taskset, as every tool hashes it on one), and a tree of 20,000
# source-sized files (sha1sum and sha1cdsum through xargs; on every core).
# Detection is on (sha1fast's default); `--no-detect` runs beside it.
#
#   scripts/bench_sha1fast.sh [ROUNDS]
#
# The commands of a group alternate: each of ROUNDS rounds (default 5)
# runs every command three times after a warm-up, so load that comes and
# goes meets all of them. It prints each command's median over all runs
# and the median over rounds of each round's ratio to sha1fast. Data is
# generated once under $SHA1FAST_BENCH_DIR (default /tmp/sha1fast-bench),
# never in the repository. Needs hyperfine, python3, openssl, sha1cdsum.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-5}
data=${SHA1FAST_BENCH_DIR:-/tmp/sha1fast-bench}
for tool in hyperfine python3 openssl sha1sum sha1cdsum taskset xargs; do
    command -v "$tool" >/dev/null || {
        echo "bench_sha1fast: $tool is missing (apt-get install hyperfine sha1cdsum openssl)" >&2
        exit 1
    }
done

cargo build --release -p sha1fast
sha1fast=$PWD/target/release/sha1fast

mkdir -p "$data"
cd "$data"
if [ ! -f big.bin ] || [ "$(stat -c %s big.bin)" != 536870912 ]; then
    head -c 536870912 /dev/urandom >big.bin
fi
if [ ! -f files.txt ] || [ "$(wc -l <files.txt)" != 20000 ]; then
    rm -rf tree
    # Sizes log-normal around 3 KiB (mean 7 KiB, none above 1 MiB), as in a
    # source checkout; fixed seed, so every run sees the same tree.
    python3 - <<'EOF'
import os, random
rng = random.Random(46)
for i in range(20000):
    d = f"tree/d{i % 200:03}"
    os.makedirs(d, exist_ok=True)
    size = min(int(rng.lognormvariate(8.0, 1.3)), 1 << 20)
    with open(f"{d}/f{i:05}.rs", "wb") as f:
        f.write(rng.randbytes(size))
EOF
    find tree -type f | sort >files.txt
fi
# Everything read once, so every command meets a warm page cache.
cat big.bin tree/*/* >/dev/null

# group NAME COMMAND... : ROUNDS rounds of hyperfine over the commands.
group() {
    local name=$1
    shift
    for round in $(seq "$rounds"); do
        hyperfine -N --style none --warmup 1 --runs 3 \
            --export-json "$name-$round.json" "$@" >/dev/null
    done
}

pin="taskset -c 1"
group file \
    "$pin $sha1fast big.bin" \
    "$pin $sha1fast --no-detect big.bin" \
    "$pin sha1sum big.bin" \
    "$pin openssl dgst -sha1 big.bin" \
    "$pin sha1cdsum big.bin"
group tree \
    "xargs -a files.txt -d '\n' $sha1fast" \
    "xargs -a files.txt -d '\n' $sha1fast --no-detect" \
    "xargs -a files.txt -d '\n' sha1sum" \
    "xargs -a files.txt -d '\n' sha1cdsum"

python3 - "$rounds" "$sha1fast" <<'EOF'
import json, statistics, sys
rounds, sha1fast = int(sys.argv[1]), sys.argv[2]
def short(command):
    return command.replace(sha1fast, "sha1fast").replace("taskset -c 1 ", "")
for name, title in [("file", "one 512 MiB file, one core"), ("tree", "20,000 files, every core")]:
    per_round = [json.load(open(f"{name}-{r}.json"))["results"] for r in range(1, rounds + 1)]
    commands = [r["command"] for r in per_round[0]]
    subject = commands[0]
    print(f"\n{title} ({rounds} rounds x 3 runs)\n")
    print("| command | median | sha1fast is faster by (median of rounds) |")
    print("|---|---:|---:|")
    for i, command in enumerate(commands):
        times = [t for results in per_round for t in results[i]["times"]]
        ratios = [statistics.median(results[i]["times"]) / statistics.median(results[0]["times"])
                  for results in per_round]
        ratio = "—" if command == subject else f"{statistics.median(ratios):.2f}x"
        print(f"| `{short(command)}` | {statistics.median(times):.3f} s | {ratio} |")
EOF
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
