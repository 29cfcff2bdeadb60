#!/usr/bin/env bash
# A 2 GB swap file as a last resort against out-of-memory kills (not working memory), with
# vm.swappiness=10. Idempotent: an existing /swapfile or any active swap is left as it is.
set -euo pipefail

SWAP_FILE="${SWAP_FILE:-/swapfile}"
SWAP_SIZE="${SWAP_SIZE:-2G}"

if swapon --noheadings --show=NAME | grep -q .; then
	echo "swap: already active ($(swapon --noheadings --show=NAME | tr '\n' ' '))"
else
	if [[ ! -f "$SWAP_FILE" ]]; then
		fallocate -l "$SWAP_SIZE" "$SWAP_FILE"
		chmod 600 "$SWAP_FILE"
		mkswap "$SWAP_FILE" >/dev/null
	fi
	swapon "$SWAP_FILE"
	grep -qF "$SWAP_FILE " /etc/fstab || echo "$SWAP_FILE none swap sw 0 0" >>/etc/fstab
	echo "swap: $SWAP_FILE ($SWAP_SIZE) enabled"
fi

echo 'vm.swappiness=10' >/etc/sysctl.d/90-sticker-swappiness.conf
sysctl -q -w vm.swappiness=10
