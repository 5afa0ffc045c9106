#!/usr/bin/env bash
# Table Companion: install what is missing, then run the companion or its tests.
#
#   ./setup.sh run         Raspberry Pi: system packages, a service that starts at boot.
#                          Laptop: a .venv in this folder, then the demo in a window.
#   ./setup.sh test        .venv with the dev tools, then the whole test suite.
#   ./setup.sh uninstall   undo `run` (keeps the game history unless --purge).
#
# Safe to run again and again: finished steps are skipped, the app code is reinstalled.
# Must keep working with macOS's bash 3.2 on the laptop path (no bash 4 features there).
set -euo pipefail

SERVICE=companion.service
PI_USER=companion
PI_GROUPS="video render input gpio audio"
STATE_DIR=/var/lib/table-companion
CONFIG_DIR=/etc/table-companion
CACHE_DIR=/var/cache/table-companion
SYSTEMD_DIR=/etc/systemd/system
WRAPPER=/usr/local/bin/companion
# Overridable so the tests can exercise the Raspberry Pi path on any machine.
PI_MODEL_FILE=${COMPANION_PI_MODEL_FILE:-/proc/device-tree/model}
OS_RELEASE_FILE=${COMPANION_OS_RELEASE_FILE:-/etc/os-release}
PI_PREFIX=${COMPANION_PI_PREFIX:-/opt/table-companion}

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
VENV=$REPO_DIR/.venv

usage() {
    cat <<'EOF'
Usage: ./setup.sh COMMAND [--dry-run] [ARGS...]

Commands:
  run          Install what is missing, then start Table Companion.
                 Raspberry Pi: installs it as a service that starts at boot.
                 Laptop:       runs the demo in a window (ARGS go to `companion run`,
                               e.g. ./setup.sh run --exit-after 3).
  test         Install what is missing, then run all the tests (ARGS go to pytest).
  uninstall    Remove what `run` installed. The players' game history is kept;
               add --purge to delete it (and the settings) too.
  help         Show this help (also -h, --help).

Options, right after the command:
  --dry-run    Print the commands that would change this computer, run none of them
               (same as SETUP_DRY_RUN=1).
  --purge      With uninstall: also delete the game history and the settings.

Environment: PYTHON=python3.12 picks the Python used on a laptop (3.11 or newer).
For tests: COMPANION_PI_MODEL_FILE, COMPANION_OS_RELEASE_FILE and COMPANION_PI_PREFIX
replace /proc/device-tree/model, /etc/os-release and /opt/table-companion.
EOF
}

say() { printf '==> %s\n' "$*"; }
warn() { printf 'setup.sh: warning: %s\n' "$*" >&2; }
die() {
    printf 'setup.sh: %s\n' "$*" >&2
    exit 1
}

case "${SETUP_DRY_RUN:-0}" in
    1 | true | yes) DRY_RUN=1 ;;
    *) DRY_RUN=0 ;;
esac
PURGE=0

dry() { [ "$DRY_RUN" = 1 ]; }

# Print a command the way a person would type it (single quotes only where needed).
show_cmd() {
    local arg line="+"
    for arg in "$@"; do
        case "$arg" in
            '' | *[!A-Za-z0-9_./=:,+@%-]*) line="$line '${arg//\'/\'\\\'\'}'" ;;
            *) line="$line $arg" ;;
        esac
    done
    printf '%s\n' "$line"
}

# Run a command that changes the system, or only print it in dry-run mode.
run_cmd() {
    if dry; then
        show_cmd "$@"
    else
        "$@"
    fi
}

# write_file PATH MODE CONTENT: replace a small file (only when it differs).
write_file() {
    if [ -f "$1" ] && [ "$(cat "$1")" = "$3" ]; then
        return 0
    fi
    if dry; then
        printf '+ write %s (mode %s):\n%s\n' "$1" "$2" "$3"
        return 0
    fi
    mkdir -p "$(dirname "$1")"
    printf '%s\n' "$3" >"$1.tmp.$$"
    chmod "$2" "$1.tmp.$$"
    mv -f "$1.tmp.$$" "$1"
}

is_raspberry_pi() {
    local model
    [ -r "$PI_MODEL_FILE" ] || return 1
    model=$(tr -d '\000' <"$PI_MODEL_FILE" 2>/dev/null) || return 1
    case "$model" in
        *"Raspberry Pi"*) return 0 ;;
        *) return 1 ;;
    esac
}

os_release_value() { # KEY -> value from /etc/os-release (quotes removed), or empty
    [ -r "$OS_RELEASE_FILE" ] || return 0
    awk -v key="$1" 'index($0, key "=") == 1 {
        value = substr($0, length(key) + 2); gsub(/["\047]/, "", value); print value; exit
    }' "$OS_RELEASE_FILE"
}

python_version_of() { # PYTHON -> "3.11.2", or nothing if it does not run
    "$1" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null || true
}

python_is_new_enough() {
    "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1
}

# Sets PY to a Python 3.11+ for the laptop path, or stops with one line saying what to do.
find_laptop_python() {
    local candidate found="" hint
    if [ -n "${PYTHON:-}" ]; then
        set -- "$PYTHON"
    else
        set -- python3 python3.13 python3.12 python3.11
    fi
    for candidate in "$@"; do
        command -v "$candidate" >/dev/null 2>&1 || continue
        if python_is_new_enough "$candidate"; then
            PY=$(command -v "$candidate")
            return 0
        fi
        [ -n "$found" ] || found=$(python_version_of "$candidate")
    done
    case "$(uname -s)" in
        Darwin) hint="brew install python@3.12 (or the installer from python.org)" ;;
        *) hint="sudo apt install python3 (Debian 12 / Ubuntu 24.04 have 3.11+), or use pyenv" ;;
    esac
    die "Table Companion needs Python 3.11 or newer (found ${found:-none}): install it with: $hint"
}

# Debian/Ubuntu ship venv/ensurepip separately (python3-venv).
ensure_venv_module() {
    local pkg ver
    "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1 && return 0
    if [ "$(uname -s)" != Linux ] || ! command -v apt-get >/dev/null 2>&1; then
        die "Python's venv module is missing from $PY: install a full Python 3.11+ (python.org, Homebrew or your distribution's python3-venv)"
    fi
    ver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    if [ "$PY" = /usr/bin/python3 ]; then pkg=python3-venv; else pkg=python$ver-venv; fi
    if [ "$(id -u)" != 0 ]; then
        die "Python's venv module is missing: run  sudo apt install $pkg  and then ./setup.sh again"
    fi
    say "Installing $pkg (Python's venv module)"
    export DEBIAN_FRONTEND=noninteractive
    if ! run_cmd apt-get install -y -q "$pkg"; then
        run_cmd apt-get update -q
        run_cmd apt-get install -y -q "$pkg"
    fi
}

file_sha256() {
    "$1" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$2"
}

# ---------------------------------------------------------------------------------------
# Laptop (and every `test`): .venv in the checkout, editable install.
# ---------------------------------------------------------------------------------------

# ensure_dev_venv EXTRAS: .venv exists, works, and has ".[EXTRAS]" installed for the
# current pyproject.toml. The pip step is skipped when a stamp says nothing changed.
ensure_dev_venv() {
    local extras=$1 stamp fingerprint other fresh=0
    find_laptop_python

    # A .venv made elsewhere (checkout moved) or by a Python that is gone: start over.
    if [ -e "$VENV" ]; then
        if [ -f "$VENV/.setup-location" ] && [ "$(cat "$VENV/.setup-location")" != "$VENV" ]; then
            say ".venv was made for another folder: making a new one"
            run_cmd rm -rf "$VENV"
            fresh=1
        elif ! python_is_new_enough "$VENV/bin/python"; then
            say ".venv does not work any more (or has an old Python): making a new one"
            run_cmd rm -rf "$VENV"
            fresh=1
        fi
    fi
    if [ "$fresh" = 1 ] || [ ! -x "$VENV/bin/python" ]; then
        fresh=1
        ensure_venv_module
        say "Creating .venv with $PY ($(python_version_of "$PY"))"
        if ! run_cmd "$PY" -m venv "$VENV"; then
            rm -rf "$VENV"
            die "could not create .venv with $PY (is python3-venv installed?)"
        fi
    fi
    write_file "$VENV/.setup-location" 644 "$VENV"

    stamp=$VENV/.setup-stamp-$(printf '%s' "$extras" | tr ',' '+')
    if [ -x "$VENV/bin/python" ] && ! { dry && [ "$fresh" = 1 ]; }; then
        fingerprint="$(file_sha256 "$VENV/bin/python" "$REPO_DIR/pyproject.toml") python-$(python_version_of "$VENV/bin/python")"
    else
        fingerprint=dry-run
    fi
    # `test` installs laptop+dev, which covers what `run` needs.
    for other in "$stamp" "$VENV/.setup-stamp-laptop+dev"; do
        if [ -f "$other" ] && [ "$(cat "$other")" = "$fingerprint" ] && [ -x "$VENV/bin/companion" ]; then
            say ".venv is up to date (pyproject.toml unchanged)"
            return 0
        fi
    done
    say "Installing Table Companion and its Python packages into .venv (a few minutes the first time)"
    run_cmd "$VENV/bin/python" -m pip install --disable-pip-version-check -q -e "${REPO_DIR}[${extras}]"
    write_file "$stamp" 644 "$fingerprint"
}

laptop_run() {
    ensure_dev_venv laptop
    say "Starting the demo: companion run --demo $*"
    if dry; then
        run_cmd "$VENV/bin/companion" run --demo "$@"
        return 0
    fi
    exec "$VENV/bin/companion" run --demo "$@"
}

cmd_test() {
    ensure_dev_venv laptop,dev
    # No display or sound card needed: SDL draws into memory.
    export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
    say "Running the tests: pytest $*"
    if dry; then
        run_cmd "$VENV/bin/python" -m pytest "$@"
        return 0
    fi
    exec "$VENV/bin/python" -m pytest "$@"
}

laptop_uninstall() {
    if [ -e "$VENV" ]; then
        say "Removing $VENV"
        run_cmd rm -rf "$VENV"
    else
        say "Nothing to remove: there is no .venv in $REPO_DIR"
    fi
    if [ "$PURGE" = 1 ]; then
        say "--purge removes the game history only on a Raspberry Pi; on a laptop it is in your user folders (\`companion doctor\` shows where): delete it there by hand."
    else
        say "Your settings and game history in your user folders were kept (\`companion doctor\` shows where they are)."
    fi
}

# ---------------------------------------------------------------------------------------
# Raspberry Pi: apt packages, system user, /opt venv on top of apt's numpy/OpenCV/
# picamera2/lgpio, systemd service.
# ---------------------------------------------------------------------------------------

# zbar (printed tag sheets) was renamed by Debian's 64-bit time_t transition.
zbar_package() {
    local codename
    codename=$(os_release_value VERSION_CODENAME)
    case "$codename" in
        buster | bullseye | bookworm) echo libzbar0 ;;
        trixie | forky | sid) echo libzbar0t64 ;;
        *)
            # Unknown release: ask apt which one it has.
            if ! dry && command -v apt-cache >/dev/null 2>&1 && apt_has_candidate libzbar0t64; then
                echo libzbar0t64
            elif ! dry && command -v apt-cache >/dev/null 2>&1 && apt_has_candidate libzbar0; then
                echo libzbar0
            else
                echo libzbar0t64
            fi
            ;;
    esac
}

apt_has_candidate() {
    local candidate
    candidate=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

deb_installed() {
    command -v dpkg-query >/dev/null 2>&1 || return 1
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ]
}

pi_packages() {
    # python3-*: numpy, OpenCV, picamera2 and lgpio must come from apt (built for this
    # Pi, and picamera2 is only packaged there); the venv sees them through
    # --system-site-packages. libgbm1/libegl1/libgles2/libgl1-mesa-dri: SDL's KMS/DRM
    # driver (bundled in the pygame-ce wheel) loads them to draw on the screen.
    echo python3 python3-venv python3-pip python3-numpy python3-opencv python3-picamera2 \
        python3-lgpio "$(zbar_package)" fonts-dejavu-core \
        libgbm1 libegl1 libgles2 libgl1-mesa-dri
}

pi_install_packages() {
    local pkg missing="" installable="" unavailable=""
    for pkg in $(pi_packages); do
        deb_installed "$pkg" || missing="$missing $pkg"
    done
    if [ -z "$missing" ]; then
        say "System packages: all there"
        return 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    say "Installing system packages:$missing"
    run_cmd apt-get update -q
    for pkg in $missing; do
        if dry || apt_has_candidate "$pkg"; then
            installable="$installable $pkg"
        else
            unavailable="$unavailable $pkg"
        fi
    done
    if [ -n "$unavailable" ]; then
        warn "not available from apt here, skipped:$unavailable (is this Raspberry Pi OS? picamera2 only comes from the Raspberry Pi archive)"
    fi
    if [ -n "$installable" ]; then
        # shellcheck disable=SC2086  # word splitting of the package list is wanted
        run_cmd apt-get install -y -q --no-install-recommends $installable
    fi
}

pi_warn_if_desktop() {
    local target
    target=$(systemctl get-default 2>/dev/null || true)
    if [ "$target" = graphical.target ]; then
        warn "this Pi starts the desktop, which keeps the screen for itself, so the companion cannot draw on it. Switch to console boot with:  sudo raspi-config nonint do_boot_behaviour B1  then reboot (or use Raspberry Pi OS Lite)."
    fi
}

existing_groups() { # the groups of PI_GROUPS that exist here
    local g out=""
    for g in $PI_GROUPS; do
        if getent group "$g" >/dev/null 2>&1; then out="$out $g"; fi
    done
    echo "${out# }"
}

pi_ensure_user() {
    local wanted have g missing=""
    if ! getent passwd "$PI_USER" >/dev/null 2>&1; then
        say "Creating the system user '$PI_USER'"
        run_cmd useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Table Companion" "$PI_USER"
        have=""
    else
        have=" $(id -nG "$PI_USER" 2>/dev/null || true) "
    fi
    wanted=$(existing_groups)
    for g in $wanted; do
        case "$have" in
            *" $g "*) ;;
            *) missing="$missing,$g" ;;
        esac
    done
    if [ -n "$missing" ]; then
        say "Giving '$PI_USER' access to the screen, touch, camera, buttons and sound:${missing//,/ }"
        run_cmd usermod -a -G "${missing#,}" "$PI_USER"
    fi
}

pi_ensure_dirs() {
    # The service saves settings from the touchscreen into config.toml (the unit makes
    # /etc/table-companion writable); systemd does not chown a ConfigurationDirectory.
    if [ ! -d "$CONFIG_DIR" ] || [ "$(stat -c %U "$CONFIG_DIR" 2>/dev/null || true)" != "$PI_USER" ]; then
        run_cmd install -d -o "$PI_USER" -g "$PI_USER" -m 0755 "$CONFIG_DIR"
    fi
}

pi_ensure_venv() { # PYTHON -> /opt/table-companion/venv with --system-site-packages
    local py=$1 venv=$PI_PREFIX/venv ok=1
    if [ ! -x "$venv/bin/python" ]; then
        ok=0
    elif [ "$(python_version_of "$venv/bin/python")" != "$(python_version_of "$py")" ]; then
        say "The Python of $venv changed (system upgrade?): making a new venv"
        ok=0
    elif ! grep -qi '^include-system-site-packages *= *true' "$venv/pyvenv.cfg" 2>/dev/null; then
        ok=0
    fi
    if [ "$ok" = 0 ]; then
        say "Creating $venv (sees apt's numpy, OpenCV, picamera2 and lgpio)"
        run_cmd rm -rf "$venv"
        run_cmd mkdir -p "$PI_PREFIX"
        run_cmd "$py" -m venv --system-site-packages "$venv"
    fi
}

pi_install_app() { # PYTHON
    local py=$1 venv=$PI_PREFIX/venv numpy_version constraints tmp
    # Belt and braces: the core dependencies do not need numpy, and pip must never
    # replace apt's numpy (picamera2 and OpenCV from apt are built against it).
    numpy_version=$("$py" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
    constraints="# Written by setup.sh: numpy comes from apt (python3-numpy), never from pip."
    if [ -n "$numpy_version" ]; then
        constraints="$constraints
numpy==$numpy_version"
    fi
    write_file "$PI_PREFIX/constraints.txt" 644 "$constraints"

    say "Installing the Table Companion app into $venv"
    # pip builds in the source folder; build from a copy so no root-owned build files
    # are left in the family's checkout. Not the `laptop` extra: OpenCV/numpy are apt's.
    if dry; then
        run_cmd "$venv/bin/python" -m pip install --disable-pip-version-check -q \
            -c "$PI_PREFIX/constraints.txt" "<copy of $REPO_DIR>"
        return 0
    fi
    tmp=$(mktemp -d)
    # shellcheck disable=SC2064  # expand $tmp now
    trap "rm -rf '$tmp'" EXIT
    (cd "$REPO_DIR" && tar --exclude=./.git --exclude=./.venv --exclude=./build \
        --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache \
        --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.hypothesis -cf - .) |
        tar -C "$tmp" -xf -
    "$venv/bin/python" -m pip install --disable-pip-version-check -q \
        -c "$PI_PREFIX/constraints.txt" "$tmp"
    rm -rf "$tmp"
    trap - EXIT
}

pi_install_service() {
    local unit=$SYSTEMD_DIR/$SERVICE dropin_dir=$SYSTEMD_DIR/$SERVICE.d g have missing=""
    if ! cmp -s "$REPO_DIR/systemd/$SERVICE" "$unit"; then
        say "Installing $unit"
        run_cmd install -m 0644 "$REPO_DIR/systemd/$SERVICE" "$unit"
    fi
    # systemd refuses to start a unit whose SupplementaryGroups= names a missing group.
    have=$(existing_groups)
    for g in $PI_GROUPS; do
        case " $have " in *" $g "*) ;; *) missing="$missing $g" ;; esac
    done
    if [ -n "$missing" ]; then
        write_file "$dropin_dir/10-groups.conf" 644 "# Written by setup.sh: these groups do not exist here:$missing
[Service]
SupplementaryGroups=
SupplementaryGroups=$have"
    elif [ -e "$dropin_dir/10-groups.conf" ]; then
        run_cmd rm -f "$dropin_dir/10-groups.conf"
    fi
    # `companion doctor` for the family: same user, settings and history as the service.
    write_file "$WRAPPER" 755 "#!/bin/sh
# Written by setup.sh (Table Companion). Runs the companion command the way the service
# does: as the '$PI_USER' user, with its settings and game history.
# Stop the service first when the camera is needed: sudo systemctl stop companion
if [ \"\$(id -un)\" != $PI_USER ]; then
    exec sudo -u $PI_USER -- \"\$0\" \"\$@\"
fi
export CONFIGURATION_DIRECTORY=\"\${CONFIGURATION_DIRECTORY:-$CONFIG_DIR}\"
export STATE_DIRECTORY=\"\${STATE_DIRECTORY:-$STATE_DIR}\"
# lgpio (buttons) creates small FIFOs in the current folder.
[ -w . ] || cd \"\$STATE_DIRECTORY\"
exec $PI_PREFIX/venv/bin/companion \"\$@\""
    run_cmd systemctl daemon-reload
    run_cmd systemctl enable --quiet "$SERVICE"
    say "Starting the companion (restarting it if it was running)"
    if ! run_cmd systemctl restart "$SERVICE"; then
        journalctl -u "${SERVICE%.service}" -n 30 --no-pager >&2 || true
        die "the companion did not start (last log lines above). Try: sudo systemctl stop companion; companion doctor"
    fi
}

require_root_or_sudo() { # re-run this script with sudo when needed
    dry && return 0
    [ "$(id -u)" = 0 ] && return 0
    command -v sudo >/dev/null 2>&1 || die "please run this as root (sudo is not installed)"
    say "Installing system parts needs administrator rights: asking sudo"
    exec sudo -- "$REPO_DIR/setup.sh" "$@"
}

pi_run() {
    local py=/usr/bin/python3 version
    umask 022 # the service user must be able to read what root installs
    # Stop before touching anything on an old system (Bullseye has Python 3.9).
    if [ -x "$py" ] && ! python_is_new_enough "$py"; then
        version=$(python_version_of "$py")
        die "Table Companion needs Python 3.11 or newer and this system has ${version:-an unknown version}: flash Raspberry Pi OS Bookworm or newer (64-bit)"
    fi
    pi_install_packages
    if ! dry && ! python_is_new_enough "$py"; then
        die "Table Companion needs Python 3.11 or newer: flash Raspberry Pi OS Bookworm or newer (64-bit)"
    fi
    pi_warn_if_desktop
    pi_ensure_user
    pi_ensure_dirs
    pi_ensure_venv "$py"
    pi_install_app "$py"
    pi_install_service
    say "Table Companion is installed and starts at every boot."
    say "Logs:      journalctl -u companion -f"
    say "Settings:  $CONFIG_DIR/config.toml    Game history: $STATE_DIR"
    say "Stop/start: sudo systemctl stop companion / sudo systemctl start companion"
}

pi_uninstall() {
    local unit=$SYSTEMD_DIR/$SERVICE
    if [ -e "$unit" ] || systemctl cat "$SERVICE" >/dev/null 2>&1; then
        say "Stopping and removing the companion service"
        run_cmd systemctl disable --now --quiet "$SERVICE" || true
        run_cmd rm -f "$unit"
        run_cmd rm -rf "$SYSTEMD_DIR/$SERVICE.d"
        run_cmd systemctl daemon-reload
        run_cmd systemctl reset-failed "$SERVICE" 2>/dev/null || true
    fi
    if [ -f "$WRAPPER" ] && grep -q 'Written by setup.sh (Table Companion)' "$WRAPPER"; then
        run_cmd rm -f "$WRAPPER"
    fi
    if [ -e "$PI_PREFIX" ]; then
        say "Removing $PI_PREFIX"
        run_cmd rm -rf "$PI_PREFIX"
    fi
    if [ -e "$CACHE_DIR" ]; then run_cmd rm -rf "$CACHE_DIR"; fi
    if [ "$PURGE" = 1 ]; then
        say "--purge: deleting the game history ($STATE_DIR), the settings ($CONFIG_DIR) and the '$PI_USER' user"
        run_cmd rm -rf "$STATE_DIR" "$CONFIG_DIR"
        if getent passwd "$PI_USER" >/dev/null 2>&1; then run_cmd userdel "$PI_USER"; fi
    else
        say "Kept the players' game history in $STATE_DIR and the settings in $CONFIG_DIR."
        say "To delete them too: ./setup.sh uninstall --purge"
    fi
    say "System packages installed with apt were left in place."
}

# ---------------------------------------------------------------------------------------

main() {
    local cmd
    if [ $# -eq 0 ]; then
        usage >&2
        exit 2
    fi
    cmd=$1
    shift
    case "$cmd" in
        -h | --help | help)
            usage
            return 0
            ;;
        run | test | uninstall) ;;
        *)
            printf "setup.sh: unknown command '%s' (expected run, test, uninstall or --help)\n" "$cmd" >&2
            usage >&2
            exit 2
            ;;
    esac
    # setup.sh's own options come right after the command; the rest is passed on.
    while [ $# -gt 0 ]; do
        case "$1" in
            --dry-run) DRY_RUN=1 ;;
            --purge)
                [ "$cmd" = uninstall ] || break
                PURGE=1
                ;;
            *) break ;;
        esac
        shift
    done
    if dry; then say "Dry run: printing the commands that change this computer instead of running them"; fi

    cd "$REPO_DIR"
    case "$cmd" in
        test) cmd_test "$@" ;;
        run)
            if is_raspberry_pi; then
                require_root_or_sudo run "$@"
                if [ $# -gt 0 ]; then warn "on the Raspberry Pi the service runs \`companion run --fullscreen\`; ignoring: $*"; fi
                pi_run
            else
                laptop_run "$@"
            fi
            ;;
        uninstall)
            if is_raspberry_pi; then
                if [ "$PURGE" = 1 ]; then require_root_or_sudo uninstall --purge; else require_root_or_sudo uninstall; fi
                pi_uninstall
            else
                laptop_uninstall
            fi
            ;;
    esac
}

main "$@"
