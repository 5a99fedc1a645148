#!/bin/sh
# Installs the tools test/bench uses, from Debian's archive, when missing (run as root).
set -e

# need COMMAND PACKAGE: apt-get install PACKAGE unless COMMAND is on the PATH.
need() {
  if ! command -v "$1" >/dev/null 2>&1 && ! [ -x "$1" ]; then
    if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"
  fi
}

# Benchmarks: guile 3 as a reference Scheme, GNU time for peak memory (%M),
# hyperfine for ad-hoc comparisons.
need guile guile-3.0
need /usr/bin/time time
need hyperfine hyperfine

# test/bench/grep.mjs compares the scan engine behind index-grep with ripgrep.
need rg ripgrep
