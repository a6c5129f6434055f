#!/usr/bin/env bash
# make release VERSION=vX.Y.Z: release archives of fabricgen in dist/.
# make tag VERSION=v0.N.M (scripts/release.sh tag v0.N.M): the tag first.
#
# Tagging checks the work tree is clean, the tag is new and above the
# highest v* tag, points the pre-commit snippets' `rev:` (README.md,
# docs/*.md) at the new tag, commits that ("release v0.N.M: pre-commit pins
# v0.N.M") when it changed anything, and makes the annotated tag at that
# commit, so a `go build` there stamps v0.N.M (Go takes the main module's
# version from the tag) and the archives are built from it.
#
# The tag must exist and point at HEAD and the work tree must be clean, so
# an archive holds exactly the tagged source. For each platform (default
# linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; RELEASE_PLATFORMS
# overrides) it builds a static binary with the version stamped in
# (-X main.releaseVersion), packs it with README.md, docs/ (every tracked
# file, so the README's links work) and the man pages into
# fabricgen_X.Y.Z_OS_ARCH.tar.gz, and writes checksums.txt (SHA-256).
# Archives are reproducible: sorted names, the tag's commit time, owner 0.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
version=${1:-}
platforms=${RELEASE_PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64}
dist=${RELEASE_DIR:-dist}

fail() { echo "release: $*" >&2; exit 1; }

# tag VERSION: the tagging flow above.
tag() {
  local version=$1
  [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "$version is not a release tag such as v0.3.0 (vMAJOR.MINOR.PATCH)"
  [ -z "$(git status --porcelain)" ] || fail "the work tree has uncommitted changes: commit or stash them before tagging"
  ! git rev-parse -q --verify "refs/tags/$version" >/dev/null || fail "tag $version exists already: pick the next version"
  local latest
  latest=$(git tag --list 'v[0-9]*' | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1 || true)
  if [ -n "$latest" ] && [ "$(printf '%s\n%s\n' "$latest" "$version" | sort -V | tail -n 1)" != "$version" ]; then
    fail "$version is not above the latest tag $latest: pick a higher version"
  fi
  # Every `rev:` within three lines after the fabricgen repo line of a
  # pre-commit snippet, keeping its indentation and comment.
  local f changed=()
  while IFS= read -r f; do
    awk -v v="$version" '
      /repo: https:\/\/github.com\/fabricgen\/fabricgen[[:space:]]*$/ { near = 3; print; next }
      near > 0 && /^[[:space:]]+rev:[[:space:]]+[^[:space:]#]+/ {
        ind = substr($0, 1, index($0, "rev:") - 1)
        match($0, /rev:[[:space:]]+[^[:space:]#]+/)
        print ind "rev: " v substr($0, RSTART + RLENGTH); near = 0; next
      }
      { if (near > 0) near--; print }
    ' "$f" > "$f.tmp"
    if cmp -s "$f" "$f.tmp"; then rm -f "$f.tmp"; else mv "$f.tmp" "$f"; changed+=("$f"); fi
  done < <(git ls-files -- README.md 'docs/*.md')
  if [ ${#changed[@]} -gt 0 ]; then
    git add -- "${changed[@]}"
    git commit -q -m "release $version: pre-commit pins $version"
  fi
  git tag -a "$version" -m "fabricgen $version"
  echo "tagged $version at $(git rev-parse --short HEAD)${changed[*]:+ (pre-commit rev in ${changed[*]})}"
  echo "next: git push origin HEAD $version && make release VERSION=$version"
}

if [ "${1:-}" = tag ]; then
  [ -n "${2:-}" ] || fail "usage: make tag VERSION=v0.N.M (scripts/release.sh tag v0.N.M)"
  tag "$2"
  exit 0
fi
[ -n "$version" ] || fail "usage: make release VERSION=vX.Y.Z (a tag at HEAD; make tag VERSION=vX.Y.Z makes one)"
[[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || fail "$version is not a version tag such as v0.2.0"
tagged=$(git rev-parse -q --verify "refs/tags/$version^{commit}" || true)
[ -n "$tagged" ] || fail "no tag $version: make tag VERSION=$version first"
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
  # The documentation the README links to, as in the repository.
  git ls-files -z -- docs | xargs -0 -I{} cp --parents {} "$stage/"
  tar -C "$dist" --sort=name --mtime="@$mtime" --owner=0 --group=0 --numeric-owner -czf "$dist/$name.tar.gz" "$name"
  rm -rf "$stage"
done
(cd "$dist" && sha256sum -- *.tar.gz > checksums.txt)
echo "release $version: $(cd "$dist" && echo *.tar.gz) and checksums.txt in $dist/"
