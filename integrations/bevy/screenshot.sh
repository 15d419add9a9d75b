#!/usr/bin/env bash
# Takes the README's picture of the Bevy example from a real run: the keep in a window under Xvfb,
# drawn by Mesa's software Vulkan driver (lavapipe), saved by Bevy's own screenshot at tick 60.
#   integrations/bevy/screenshot.sh [OUT.png]     (default docs/img/bevy-keep.png)
# Installs xvfb and mesa-vulkan-drivers with apt when they are missing.
set -euo pipefail
cd "$(dirname "$0")"
out="$(realpath -m "${1:-../../docs/img/bevy-keep.png}")"
if ! command -v xvfb-run >/dev/null || ! ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb xauth mesa-vulkan-drivers libvulkan1 >/dev/null
fi
cargo build --release --example keep --features window
rm -f "$out"
TACTICA_SCREENSHOT="$out" WGPU_BACKEND=vulkan BEVY_ASSET_ROOT="$(pwd)" \
    xvfb-run -a -s "-screen 0 1024x768x24" ../../target/release/examples/keep
test -s "$out" && echo "saved $out"
