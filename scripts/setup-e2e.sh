#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, from scratch, on a fresh Debian machine:
#   - Debian packages: chromium (the browser Playwright drives), libkrb5-dev (kerberos native build),
#     ripgrep (stands in for @vscode/ripgrep's GitHub download);
#   - code-server 4.100.3 (VS Code 1.100.3 with its real Node extension host) from the npm registry,
#     into a tools folder OUTSIDE the package, reused when it is already complete.
# Usage: bash scripts/setup-e2e.sh        (env SESSION_LEDGER_TOOLS overrides the tools folder)
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
RIPGREP_CACHE_VERSION=1.15.11            # @vscode/ripgrep version inside code-server 4.100.3
RIPGREP_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz
TOOLS="${SESSION_LEDGER_TOOLS:-$HOME/.cache/session-ledger-tools}"
CS_DIR="$TOOLS/code-server-$CODE_SERVER_VERSION"
STAMP="$CS_DIR/.installed"
case "$CS_DIR" in /?*/?*) ;; *) echo "bad tools folder: $CS_DIR" >&2; exit 1 ;; esac
t0=$(date +%s)

say() { echo "== setup-e2e: $*"; }

# ---------------------------------------------------------------- Debian packages
missing=()
# fonts-ipafont-gothic: a Japanese font, so the tests' screenshots of VS Code in Japanese show the text
for p in chromium libkrb5-dev ripgrep fonts-ipafont-gothic; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then missing+=("$p"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=
  if [ "$(id -u)" != 0 ]; then
    # Not root: only a sudo that needs no password here; otherwise say exactly what to run.
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
      echo "setup-e2e: the Debian packages ${missing[*]} are missing, and installing them needs root. Run:" >&2
      echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
      echo "then run this again (npm start / npm run test:e2e do). With VS Code installed, npm start needs none of this." >&2
      exit 1
    fi
  fi
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
else
  say "Debian packages already installed (chromium libkrb5-dev ripgrep fonts-ipafont-gothic)"
fi
command -v chromium >/dev/null || { echo "chromium missing after apt-get" >&2; exit 1; }
command -v rg >/dev/null || { echo "rg missing after apt-get" >&2; exit 1; }

# ---------------------------------------------------------------- code-server
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
  echo "code-server $CODE_SERVER_VERSION needs Node 20 (this is $(node --version))" >&2
  exit 1
fi

verify() {
  local cs="$CS_DIR/node_modules/code-server"
  [ -x "$cs/out/node/entry.js" ] || [ -f "$cs/out/node/entry.js" ] || return 1
  [ -f "$cs/lib/vscode/out/server-main.js" ] || return 1
  # native modules built by the install scripts (npm 11 skips unapproved scripts silently)
  [ -f "$cs/lib/vscode/node_modules/node-pty/build/Release/pty.node" ] || { echo "node-pty not built" >&2; return 1; }
  [ -x "$cs/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] || { echo "ripgrep missing" >&2; return 1; }
  [ -L "$cs/lib/vscode/node_modules.asar" ] || { echo "code-server postinstall did not run" >&2; return 1; }
  [ -d "$cs/lib/vscode/extensions/node_modules/typescript" ] || { echo "built-in extensions' deps missing" >&2; return 1; }
  local v
  # code-server writes a default config under XDG_CONFIG_HOME on its first run and says so on stdout:
  # keep that out of the user's home and out of the version line.
  local xdg
  xdg=$(mktemp -d)
  v=$(XDG_CONFIG_HOME="$xdg" node "$cs/out/node/entry.js" --version 2>/dev/null | grep -m1 -E '^[0-9]') || { rm -rf "$xdg"; return 1; }
  rm -rf "$xdg"
  case "$v" in "$CODE_SERVER_VERSION"*) ;; *) echo "unexpected version: $v" >&2; return 1 ;; esac
}

mkdir -p "$TOOLS"
exec 9>"$TOOLS/.setup.lock"
flock 9

if [ -f "$STAMP" ] && verify; then
  say "code-server $CODE_SERVER_VERSION already in $CS_DIR"
else
  # A folder without the stamp is a half-finished install (interrupted, or failed): removed and redone.
  [ -d "$CS_DIR" ] && say "removing the unfinished install in $CS_DIR"
  say "installing code-server $CODE_SERVER_VERSION into $CS_DIR: download about 90 MB from the npm registry, then compile its"
  say "native modules (node-pty, spdlog, argon2, …); measured 4 to 9 minutes on a busy 2-core machine. Log: $TOOLS/install.log"
  rm -rf "$CS_DIR"
  # Interrupted (Ctrl-C) or failed: nothing half-finished stays behind to be mistaken for an install.
  trap 'rm -rf "$CS_DIR"; echo "setup-e2e: interrupted; the unfinished install was removed" >&2; exit 130' INT TERM
  mkdir -p "$CS_DIR/tmp"
  # Pre-seed @vscode/ripgrep's download cache with Debian's rg (it would fetch from GitHub).
  rgcache="$CS_DIR/tmp/vscode-ripgrep-cache-$RIPGREP_CACHE_VERSION"
  mkdir -p "$rgcache/stage"
  cp "$(command -v rg)" "$rgcache/stage/rg"
  tar czf "$rgcache/$RIPGREP_ASSET" -C "$rgcache/stage" rg
  rm -rf "$rgcache/stage"
  # npm 11 skips dependencies' install scripts unless they are approved, and code-server's own
  # postinstall runs nested "npm install"s in lib/vscode and lib/vscode/extensions, which are
  # project-scoped installs (--allow-scripts there is an error, and npm hands its config on to child
  # processes). So: install without scripts, give each nested project an .npmrc that approves its
  # native modules, then rebuild with the tools folder's own allowScripts (code-server, argon2).
  # The Windows-only modules (windows-process-tree, windows-registry) stay unapproved: skipped here.
  # npm 10 ignores these keys and runs the scripts anyway.
  cat >"$CS_DIR/package.json" <<EOF
{
  "name": "session-ledger-e2e-tools",
  "private": true,
  "description": "Test tools for Session Ledger's real VS Code tests; not part of the extension.",
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF
  # kerberos is left out: VS Code loads it only to authenticate to a Kerberos proxy (import() on demand),
  # and compiling it is one of the slow steps.
  nested_allow="@parcel/watcher,@vscode/deviceid,@vscode/ripgrep,@vscode/spdlog,native-watchdog,node-pty,esbuild"
  (
    set -e
    cd "$CS_DIR"
    export TMPDIR="$CS_DIR/tmp"
    export npm_config_nodedir=/usr
    export npm_config_unsafe_perm=true
    export npm_config_yes=true
    export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
    npm install --ignore-scripts --no-save "code-server@$CODE_SERVER_VERSION"
    cs="$CS_DIR/node_modules/code-server"
    for d in "$cs/lib/vscode" "$cs/lib/vscode/extensions"; do
      printf 'allow-scripts=%s\n' "$nested_allow" >"$d/.npmrc"
    done
    npm rebuild --foreground-scripts argon2 code-server
  ) >"$TOOLS/install.log" 2>&1 &
  installer=$!
  # A line at least every 10 s: how long, and which step npm is at (the last step header in the log).
  started=$(date +%s)
  while kill -0 "$installer" 2>/dev/null; do
    for _ in 1 2 3 4 5 6 7 8; do kill -0 "$installer" 2>/dev/null || break; sleep 1; done
    kill -0 "$installer" 2>/dev/null || break
    step=$( (grep -E '^> [^ ]+@[^ ]+ [a-z]+$|^Installing Code dependencies|^added [0-9]+ packages|^gyp info spawn make|^rebuilt dependencies' "$TOOLS/install.log" 2>/dev/null || true) | tail -1 | cut -c1-90)
    case "$step" in
      "") step="downloading code-server and its packages" ;;
      "> "*) step="running ${step#> }" ;;
      "gyp info spawn make") step="compiling a native module" ;;
    esac
    say "  $(( $(date +%s) - started )) s: $step (log: $TOOLS/install.log)"
  done
  if ! wait "$installer"; then
    tail -60 "$TOOLS/install.log" >&2
    rm -rf "$CS_DIR"
    echo "code-server install failed after $(( $(date +%s) - started )) s (log: $TOOLS/install.log); the unfinished install was removed" >&2
    exit 1
  fi
  if grep -q "install-scripts" "$TOOLS/install.log"; then
    say "npm's install-script report (kerberos and the Windows-only modules are expected here; verify() checks the rest):"
    grep "install-scripts" "$TOOLS/install.log" | grep -v '^npm warn install-scripts *$' | head -20 | sed 's/^/    /' >&2
  fi
  verify || { tail -40 "$TOOLS/install.log" >&2; rm -rf "$CS_DIR"; echo "code-server installed but incomplete (log: $TOOLS/install.log); the unfinished install was removed" >&2; exit 1; }
  rm -rf "$CS_DIR/tmp"
  date -u +%FT%TZ >"$STAMP"
  trap - INT TERM
  say "installed in $(( $(date +%s) - started )) s"
fi

echo "$CS_DIR/node_modules/code-server/out/node/entry.js" >"$TOOLS/code-server.path"
say "ready in $(( $(date +%s) - t0 )) s: code-server $CODE_SERVER_VERSION, $(chromium --version 2>/dev/null | head -1)"
