#!/bin/sh
# Install the Debian 12 packages mmtree needs to build and test, if missing.
# Run as root (or with sudo available); does nothing when all are present.
set -eu
pkgs="gcc clang meson ninja-build pkg-config scdoc libxml2-dev libxml2-utils zlib1g-dev
      libgraphviz-dev graphviz xz-utils libclang-rt-14-dev time hyperfine
      bsdutils python3 chromium openmpi-bin libopenmpi-dev mpich libmpich-dev"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
