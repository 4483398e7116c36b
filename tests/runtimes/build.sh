#!/usr/bin/env bash
# Build the runtime probes (tests/runtimes/probes) into OUT with Debian's own
# toolchains, offline: Go, javac, cargo with Debian's librust-* registry.
# Non-Debian toolchains on PATH (rustup, pyenv, another JDK) are ignored so
# that every machine builds and runs the same thing.
#   build.sh OUT
set -euo pipefail
out=${1:?usage: build.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
probes=$here/probes
mkdir -p "$out"
out=$(cd "$out" && pwd)

need() { # FILE PACKAGE
	[[ -x $1 ]] || { echo "build.sh: $1 is missing: apt-get install $2 (tests/install-deps.sh)" >&2; exit 1; }
}
need /usr/bin/go golang-go
need /usr/lib/jvm/default-java/bin/javac default-jdk-headless
need /usr/bin/cargo cargo
compgen -G '/usr/share/cargo/registry/rayon-1*' >/dev/null ||
	{ echo "build.sh: Debian's rayon crate is missing: apt-get install librust-rayon-dev" >&2; exit 1; }

export PATH=/usr/bin:/bin HOME=$out
# Probes another toolchain built (OUT shared with another Debian root: a
# newer JDK's classes do not load in an older one) are built again.
toolchains=$(/usr/bin/go version && /usr/lib/jvm/default-java/bin/javac -version 2>&1 && /usr/bin/cargo --version)
if [[ $(cat "$out/toolchains" 2>/dev/null) != "$toolchains" ]]; then
	rm -f "$out/gomaxprocs" "$out/churn" "$out/rayon_probe" "$out/java/Probe.class" \
		"$out/java/Churn.class"
fi
export GOCACHE=$out/cache/go GOPATH=$out/cache/gopath GO111MODULE=off GOFLAGS= GOTOOLCHAIN=local
for p in gomaxprocs churn; do
	[[ $out/$p -nt $probes/$p.go ]] || /usr/bin/go build -o "$out/$p" "$probes/$p.go"
done

mkdir -p "$out/java"
for c in Probe Churn; do
	[[ $out/java/$c.class -nt $probes/$c.java ]] ||
		/usr/lib/jvm/default-java/bin/javac -d "$out/java" "$probes/$c.java"
done

# Debian's crates are a directory source: no network, no crates.io.
rm -rf "$out/rayon-src" && cp -r "$probes/rayon" "$out/rayon-src"
mkdir -p "$out/cache/cargo"
cat >"$out/cache/cargo/config.toml" <<CONF
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
CONF
if [[ ! $out/rayon_probe -nt $probes/rayon/src/main.rs ]]; then
	CARGO_HOME=$out/cache/cargo CARGO_TARGET_DIR=$out/cache/target RUSTUP_TOOLCHAIN= \
		/usr/bin/cargo build --offline --release --quiet --manifest-path "$out/rayon-src/Cargo.toml"
	cp "$out/cache/target/release/rayon_probe" "$out/rayon_probe"
fi

cp "$probes/node_probe.js" "$probes/node_churn.js" "$probes/blas.py" "$probes/blas_work.py" \
	"$probes/pool_work.py" "$probes/torch_work.py" "$probes/r_work.R" "$out/"
printf '%s\n' "$toolchains" >"$out/toolchains"
chmod -R a+rX "$out"
