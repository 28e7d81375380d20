#!/usr/bin/env bash
# Installs what the real-VS-Code tools need, from scratch, on a fresh machine:
#   - code-server 4.100.3 (VS Code 1.100.3 with its real Node extension host) from the npm registry, into
#     a tools folder OUTSIDE the package, used only once complete (the stamp), reused after that;
#   - from the system: ripgrep (rg), and to compile code-server's native modules python3, make and g++;
#     for the tests (not with --no-browser) Debian's Chromium and a Japanese and a Korean font. As root (or with a sudo that needs no
#     password) on Debian they are installed with apt-get; otherwise the exact command is printed.
# Usage: bash scripts/setup-e2e.sh [--no-browser]
#   --no-browser   only what serving code-server needs (npm start opens it in the user's own browser)
#   env SESSION_LEDGER_TOOLS overrides the tools folder (default ~/.cache/session-ledger-tools)
#
# The install takes only what a code-server run with --auth none, an extension and an integrated
# terminal loads, and compiles only what no registry package ships prebuilt:
#   compiled in parallel:  node-pty (the integrated terminal's pty host), @vscode/spdlog (every log file,
#                          and every extension's output channel, is a spdlog file), native-watchdog (the
#                          extension host ends itself when its parent dies, even while busy);
#   prebuilt:              argon2 (code-server's out/node/util.js requires it at start-up, whatever --auth
#                          says): 0.41.1 (scripts/code-server/package.json overrides code-server's ^0.31),
#                          whose registry tarball ships prebuilds/ for linux-x64 and arm64 (glibc and
#                          musl), macOS and Windows, where 0.31.2 downloads from GitHub or compiles;
#                          @parcel/watcher (its @parcel/watcher-linux-x64-glibc package);
#   copied:                @vscode/ripgrep's rg (its postinstall downloads it from GitHub): the system's rg;
#   not built:             @vscode/deviceid (its native part is Windows-only: no sources on Linux),
#                          @vscode/windows-process-tree and windows-registry (Windows only), kerberos
#                          (imported only to authenticate to a Kerberos proxy, on demand).
# A module that a platform's prebuild does not cover (argon2 on another CPU) is compiled instead.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
# scripts/code-server/ pins code-server and every package under it (a lockfile with each tarball's
# address, so npm ci fetches no package metadata), argon2 overridden to a version with prebuilds.
PINS="$HERE/code-server"
CODE_SERVER_VERSION=$(node -p 'require(process.argv[1]).dependencies["code-server"]' "$PINS/package.json")
TOOLS="${SESSION_LEDGER_TOOLS:-$HOME/.cache/session-ledger-tools}"
CS_DIR="$TOOLS/code-server-$CODE_SERVER_VERSION"
STAMP="$CS_DIR/.installed"
LOG="$TOOLS/install.log"
case "$CS_DIR" in /?*/?*) ;; *) echo "bad tools folder: $CS_DIR" >&2; exit 1 ;; esac
browser=1
for a in "$@"; do
  case "$a" in
    --no-browser) browser=0 ;;
    *) echo "setup-e2e: unknown option $a (usage: bash scripts/setup-e2e.sh [--no-browser])" >&2; exit 2 ;;
  esac
done
t0=$(date +%s)

say() { echo "== setup-e2e: $*"; }

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
  echo "code-server $CODE_SERVER_VERSION needs Node 20 (this is $(node --version))" >&2
  exit 1
fi

cs="$CS_DIR/node_modules/code-server"
vsc="$cs/lib/vscode"
NATIVE="node-pty @vscode/spdlog native-watchdog"   # compiled, in lib/vscode/node_modules

# The install is usable when every piece a run loads is there and loads, and it says its version.
verify() {
  [ -f "$cs/out/node/entry.js" ] || return 1
  [ -f "$vsc/out/server-main.js" ] || return 1
  [ -L "$vsc/node_modules.asar" ] || { echo "code-server's node_modules.asar link missing" >&2; return 1; }
  [ -d "$vsc/extensions/node_modules/typescript" ] || { echo "built-in extensions' deps missing" >&2; return 1; }
  [ -x "$vsc/node_modules/@vscode/ripgrep/bin/rg" ] || { echo "ripgrep missing" >&2; return 1; }
  local m
  for m in $NATIVE; do
    ls "$vsc/node_modules/$m/build/Release/"*.node >/dev/null 2>&1 || { echo "$m not built" >&2; return 1; }
  done
  # Each native module loads here as it will in code-server (a missing prebuild or a bad build fails now).
  (cd "$vsc" && node -e 'for (const m of ["node-pty", "@vscode/spdlog", "native-watchdog", "@parcel/watcher"]) require(m)') \
    || { echo "a native module of VS Code does not load" >&2; return 1; }
  (cd "$cs" && node -e 'require("argon2")') || { echo "argon2 does not load" >&2; return 1; }
  # code-server writes a default config under XDG_CONFIG_HOME on its first run and says so on stdout:
  # keep that out of the user's home and out of the version line.
  local v xdg
  xdg=$(mktemp -d)
  v=$(XDG_CONFIG_HOME="$xdg" node "$cs/out/node/entry.js" --version 2>/dev/null | grep -m1 -E '^[0-9]') || { rm -rf "$xdg"; return 1; }
  rm -rf "$xdg"
  case "$v" in "$CODE_SERVER_VERSION"*) ;; *) echo "unexpected version: $v" >&2; return 1 ;; esac
}

installed=0
[ -f "$STAMP" ] && verify 2>/dev/null && installed=1

# ---------------------------------------------------------------- what the system must provide
# command:Debian package. The compilers only when code-server is still to be installed.
need=(rg:ripgrep)
[ "$installed" = 1 ] || need+=(python3:python3 make:make g++:g++)
[ "$browser" = 1 ] && need+=(chromium:chromium)
# A font for Japanese and one for Korean text (language:Debian package), so Chromium draws VS Code's
# and the extension's words in those languages, and the tests' screenshots of them, as text, not boxes.
# Two small packages (IPA Gothic 3.5 MB, Nanum 10 MB) rather than fonts-noto-cjk (57 MB, both in one).
fonts=(ja:fonts-ipafont-gothic ko:fonts-nanum)
font_for() { command -v fc-list >/dev/null && [ -n "$(fc-list ":lang=$1" family 2>/dev/null)" ]; }
missing=()
for pair in "${need[@]}"; do command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}"); done
if [ "$browser" = 1 ]; then for pair in "${fonts[@]}"; do font_for "${pair%%:*}" || missing+=("${pair#*:}"); done; fi
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=
  if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo -n"; fi
  if ! command -v apt-get >/dev/null || { [ "$(id -u)" != 0 ] && [ -z "$SUDO" ]; }; then
    why="installing them needs root"
    command -v apt-get >/dev/null || why="this system has no apt-get"
    echo "setup-e2e: missing ${missing[*]} (Debian/Ubuntu package names), and $why. Install them:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    echo "(or your system's packages of the same names), then run this again (npm start / npm run test:e2e do)." >&2
    echo "With VS Code installed, npm start needs none of this: it opens your VS Code." >&2
    exit 1
  fi
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # apt-get says nothing with -qq for tens of seconds (Chromium is about 100 MB): a line every 8 s.
  ( $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null ) &
  apt_pid=$!
  apt_t=0
  while kill -0 "$apt_pid" 2>/dev/null; do
    sleep 1
    apt_t=$((apt_t + 1))
    [ $((apt_t % 8)) = 0 ] && say "  $apt_t s: apt-get install ${missing[*]}"
  done
  wait "$apt_pid" || { echo "setup-e2e: apt-get install ${missing[*]} failed (exit $?)" >&2; exit 1; }
  for pair in "${need[@]}"; do command -v "${pair%%:*}" >/dev/null || { echo "${pair%%:*} still missing after apt-get install ${pair#*:}" >&2; exit 1; }; done
  if [ "$browser" = 1 ]; then
    for pair in "${fonts[@]}"; do
      font_for "${pair%%:*}" || { echo "no font for :lang=${pair%%:*} after apt-get install ${pair#*:}" >&2; exit 1; }
    done
  fi
fi

# ---------------------------------------------------------------- code-server
mkdir -p "$TOOLS"
exec 9>"$TOOLS/.setup.lock"
flock 9
# Another run may have finished the install while this one waited for the lock.
[ "$installed" = 1 ] || { [ -f "$STAMP" ] && verify 2>/dev/null && installed=1; } || true

# Node's own headers, so node-gyp needs no download (npm's config, else the running Node's prefix).
nodedir="${npm_config_nodedir:-}"
if [ -z "$nodedir" ]; then
  nodedir=$(node -p 'require("path").resolve(process.execPath, "..", "..")')
  [ -f "$nodedir/include/node/node_api.h" ] || nodedir=
fi
# npm's own node-gyp (npm bundles it), else the registry's.
gyp_js="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
if [ -f "$gyp_js" ]; then GYP=(node "$gyp_js"); else GYP=(npx --yes node-gyp); fi

# A cold install measured on these 2-core machines (README, "npm start"): 34 s wall and 45 CPU s
# (user+sys) with the machine to itself; the wall time grows with the machine's other load, as
# 0.5 x (load average per core) times the idle figure, fitted to runs at load 7 to 13 (58 to 141 s).
EST_IDLE=35
estimate() {
  awk -v idle="$EST_IDLE" -v load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)" -v cores="$(nproc 2>/dev/null || echo 2)" \
    'BEGIN { f = 0.5 * load / cores; if (f < 1) f = 1; printf "%d", idle * f }'
}

if [ "$installed" = 1 ]; then
  say "code-server $CODE_SERVER_VERSION already in $CS_DIR"
else
  # A folder without the stamp is a half-finished install (interrupted, or failed): removed and redone.
  [ -d "$CS_DIR" ] && say "removing the unfinished install in $CS_DIR"
  est=$(estimate)
  say "installing code-server $CODE_SERVER_VERSION into $CS_DIR: about $est s here now ($EST_IDLE s on an"
  say "idle 2-core machine; load average now $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?) on $(nproc 2>/dev/null || echo ?) cores): download about 70 MB from the npm registry,"
  say "compile node-pty, spdlog and native-watchdog. Log: $LOG"
  rm -rf "$CS_DIR"
  # Interrupted (Ctrl-C) or failed: nothing half-finished stays behind to be mistaken for an install.
  trap 'rm -rf "$CS_DIR"; echo "setup-e2e: interrupted; the unfinished install was removed" >&2; exit 130' INT TERM
  mkdir -p "$CS_DIR/tmp"
  step_file="$CS_DIR/tmp/step"
  started=$(date +%s)
  cp "$PINS/package.json" "$PINS/package-lock.json" "$CS_DIR/"
  echo "downloading code-server and its packages" >"$step_file"
  (
    set -euo pipefail
    cd "$CS_DIR"
    export TMPDIR="$CS_DIR/tmp"
    [ -n "$nodedir" ] && export npm_config_nodedir="$nodedir"
    export npm_config_unsafe_perm=true npm_config_yes=true
    export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
    # No install scripts anywhere: the ones that matter are run below, the others are the downloads
    # and Windows builds listed at the top. The environment carries this into the nested installs.
    export npm_config_ignore_scripts=true
    # Each step's start in the log, with the wall and CPU seconds (user+sys, this install's processes) so far.
    step() {
      local cpu
      times >"$TMPDIR/times"   # in this shell: a pipe or $( ) would report a new subshell's zero
      cpu=$(tail -1 "$TMPDIR/times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] } printf "%.1f", n }')
      echo "$1" >"$step_file"
      printf '\n== [%d s, CPU %s s] %s\n' "$(( $(date +%s) - started ))" "$cpu" "$1"
    }
    step "downloading code-server and its 160 packages (npm ci)"
    npm ci
    # code-server's own postinstall: VS Code's packages (lib/vscode, lib/vscode/extensions, each an
    # "npm install --omit=dev") and its links. It checks the Node version npm names in this variable.
    step "downloading VS Code's packages (code-server's postinstall: lib/vscode, lib/vscode/extensions)"
    (cd "$cs" && npm_config_user_agent="npm/$(npm --version) node/$(node --version)" sh ./postinstall.sh)
    node "$vsc/extensions/postinstall.mjs" >/dev/null    # trims the built-in extensions' typescript
    mkdir -p "$vsc/node_modules/@vscode/ripgrep/bin"
    cp "$(command -v rg)" "$vsc/node_modules/@vscode/ripgrep/bin/rg"
    # The compiles, side by side (-j max: spdlog's two sources on both cores), each line tagged.
    # spdlog at -O1: its cost is the compiler's work on the fmt templates it instantiates, which -O1
    # cuts by a quarter (22.5 -> 17.3 CPU s measured here), and no log line here is hot.
    step "compiling ${NATIVE// /, } (node-gyp, in parallel)"
    pids=()
    for m in $NATIVE; do
      flags=
      [ "$m" = @vscode/spdlog ] && flags=-O1
      { TIMEFORMAT="compiled in %R s, CPU %U s user + %S s sys"; time (cd "$vsc/node_modules/$m" && CXXFLAGS="${CXXFLAGS:-} $flags" "${GYP[@]}" rebuild -j max); } 2>&1 | sed -u "s|^|[$m] |" \
        && echo "$m" >>"$TMPDIR/compiled" &
      pids+=($!)
    done
    failed=0
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
    [ "$failed" = 0 ] || { echo "a native module failed to compile (its lines are tagged above)"; exit 1; }
    (cd "$cs" && node -e 'require("argon2")' 2>/dev/null) || {
      step "compiling argon2 (no prebuild for $(uname -m) in its package)"
      (cd "$CS_DIR/node_modules/argon2" && "${GYP[@]}" rebuild -j max)
    }
    step "checking the install"
  ) >"$LOG" 2>&1 &
  installer=$!
  # A line at least every 10 s (and at each new step): the time so far, the step, the log.
  last=""
  last_at=0
  step_now=""
  # Builtins only (printf, read, mapfile) but sleep: the loop runs for minutes on a busy machine, and
  # costs no CPU to speak of.
  while kill -0 "$installer" 2>/dev/null; do
    sleep 1
    printf -v now '%(%s)T' -1
    raw=
    read -r raw <"$step_file" 2>/dev/null || true
    [ -n "$raw" ] && step_now=$raw   # empty: read while the next step was being written
    cur=$step_now
    if [[ "$cur" == compiling* && -f "$CS_DIR/tmp/compiled" ]]; then
      mapfile -t compiled <"$CS_DIR/tmp/compiled"
      printf -v joined '%s, ' "${compiled[@]}"
      cur="$cur; done: ${joined%, }"
    fi
    if [ "$cur" != "$last" ] || [ $((now - last_at)) -ge 8 ]; then
      say "  $((now - started)) s: $cur (log: $LOG)"
      last=$cur
      last_at=$now
    fi
  done
  if ! wait "$installer"; then
    tail -40 "$LOG" >&2
    rm -rf "$CS_DIR"
    echo "code-server install failed after $(( $(date +%s) - started )) s (log: $LOG); the unfinished install was removed" >&2
    exit 1
  fi
  verify >>"$LOG" 2>&1 || { tail -40 "$LOG" >&2; rm -rf "$CS_DIR"; echo "code-server installed but incomplete (log: $LOG); the unfinished install was removed" >&2; exit 1; }
  rm -rf "$CS_DIR/tmp"
  date -u +%FT%TZ >"$STAMP"
  trap - INT TERM
  say "installed in $(( $(date +%s) - started )) s (estimated $est s)"
fi

echo "$CS_DIR/node_modules/code-server/out/node/entry.js" >"$TOOLS/code-server.path"
if [ "$browser" = 1 ]; then
  say "ready in $(( $(date +%s) - t0 )) s: code-server $CODE_SERVER_VERSION, $(chromium --version 2>/dev/null | head -1)"
else
  say "ready in $(( $(date +%s) - t0 )) s: code-server $CODE_SERVER_VERSION"
fi
