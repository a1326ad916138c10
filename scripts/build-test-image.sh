#!/usr/bin/env bash
# Builds the Docker image the tests run in, offline: a root filesystem made from busybox-static,
# imported with `docker import` (no registry is reachable where the tests run).
set -euo pipefail
image="${1:-berth-test:busybox}"
busybox="$(command -v busybox || true)"
[ -n "$busybox" ] || { echo "busybox-static is not installed: apt-get install busybox-static" >&2; exit 1; }
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' || true
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,tmp,root,home,proc,sys,dev,workspace,var/tmp}
chmod 1777 "$root/tmp" "$root/var/tmp"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
  [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'WORKDIR /workspace' \
  --change 'CMD ["/bin/sh"]' \
  - "$image" >/dev/null
echo "built $image"
