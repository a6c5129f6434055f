#!/usr/bin/env bash
# make release VERSION=vX.Y.Z: release archives of fabricgen in dist/.
#
# The tag must exist and point at HEAD and the work tree must be clean, so
# an archive holds exactly the tagged source. For each platform (default
# linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; RELEASE_PLATFORMS
# overrides) it builds a static binary with the version stamped in
# (-X main.releaseVersion), packs it with README.md and the man pages into
# fabricgen_X.Y.Z_OS_ARCH.tar.gz, and writes checksums.txt (SHA-256).
# Archives are reproducible: sorted names, the tag's commit time, owner 0.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
version=${1:-}
platforms=${RELEASE_PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64}
dist=${RELEASE_DIR:-dist}

fail() { echo "release: $*" >&2; exit 1; }
[ -n "$version" ] || fail "usage: make release VERSION=vX.Y.Z (a tag at HEAD; git tag -a vX.Y.Z -m 'fabricgen vX.Y.Z')"
[[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || fail "$version is not a version tag such as v0.2.0"
tagged=$(git rev-parse -q --verify "refs/tags/$version^{commit}" || true)
[ -n "$tagged" ] || fail "no tag $version: git tag -a $version -m 'fabricgen $version' first"
head=$(git rev-parse HEAD)
[ "$tagged" = "$head" ] || fail "tag $version is commit $tagged but HEAD is $head: git checkout $version"
# The dirty-tree check names what it objects to: the changed files, and
# the untracked ones (outputs of the README tour such as plan.json or out/
# are untracked, not changed, and need another fix).
dirty=$(git status --porcelain --untracked-files=all)
if [ -n "$dirty" ]; then
	changed=$(printf '%s\n' "$dirty" | grep -v '^?? ' | cut -c4- | head -n 20 || true)
	untracked=$(printf '%s\n' "$dirty" | sed -n 's/^?? //p' | head -n 20)
	msg="the work tree is not clean"
	[ -z "$changed" ] || msg+=$'\n'"uncommitted changes (commit or stash them):"$'\n'"$(printf '%s\n' "$changed" | sed 's/^/  /')"
	[ -z "$untracked" ] || msg+=$'\n'"untracked files (remove them, or git stash -u; or add them to .gitignore):"$'\n'"$(printf '%s\n' "$untracked" | sed 's/^/  /')"
	fail "$msg"
fi

mtime=$(git log -1 --format=%ct "$version")
rm -rf "$dist"
mkdir -p "$dist"
for p in $platforms; do
  os=${p%/*}
  arch=${p#*/}
  name="fabricgen_${version#v}_${os}_${arch}"
  stage="$dist/$name"
  mkdir -p "$stage/man"
  echo "==> $name"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch GOFLAGS=-buildvcs=true \
    "$GO" build -trimpath -ldflags "-s -w -X main.releaseVersion=$version" -o "$stage/fabricgen" ./cmd/fabricgen
  cp README.md "$stage/"
  cp docs/man/*.1 "$stage/man/"
  tar -C "$dist" --sort=name --mtime="@$mtime" --owner=0 --group=0 --numeric-owner -czf "$dist/$name.tar.gz" "$name"
  rm -rf "$stage"
done
(cd "$dist" && sha256sum -- *.tar.gz > checksums.txt)
echo "release $version: $(cd "$dist" && echo *.tar.gz) and checksums.txt in $dist/"
