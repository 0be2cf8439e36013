#!/usr/bin/env bash
# Builds localhost/hello-secret:1.0.0, a busybox image, with no registry: Debian's busybox-static
# in an empty root filesystem, imported by podman (`sudo apt-get install -y podman busybox-static`).
set -euo pipefail
image=localhost/hello-secret:1.0.0
if podman image exists "$image"; then echo "$image is there"; exit 0; fi
rootfs=$(mktemp -d)
trap 'rm -rf "$rootfs"' EXIT
mkdir -p "$rootfs/bin" "$rootfs/tmp"
cp /bin/busybox "$rootfs/bin/busybox"
for applet in sh cat date echo sleep ls; do ln -s busybox "$rootfs/bin/$applet"; done
tar -C "$rootfs" -c . | podman import --quiet --change 'CMD ["/bin/sh"]' - "$image" >/dev/null
echo "built $image"
