#!/usr/bin/env bash
# Install the Debian packages pickerd needs to build and test, and only those
# that are missing. Fast (one dpkg-query) when everything is already there.
#
#   scripts/install-deps.sh          build and test: C image libraries (liblcms2-dev: colour management, colord-data + libgs-common: ICC profiles for its tests; libheif-examples: heif-enc and
#                                    heif-convert make and judge HEIF test files), pkg-config,
#                                    Pillow for /usr/bin/python3 (the tests' reference),
#                                    tmux, zsh and fish (the completion tests drive them),
#                                    neovim (clients/nvim/run-tests.sh), emacs-lucid
#                                    (clients/emacs/run-tests.sh: one Emacs for -nw and graphic frames), systemd's
#                                    systemd-socket-activate (IntegrationTests), xterm + Xvfb +
#                                    xwd/xwdtopnm (PickXtermTests: a real sixel terminal), libchafa-dev
#                                    + libglib2.0-dev (sixel/symbols output) and the chafa
#                                    command (the reference TerminalFormatTests compare with)
#   scripts/install-deps.sh bench    also libvips-tools, imagemagick, hyperfine
#
# Installs as root, non-interactively; prints one line per package installed.
# Not root and something missing: prints the command to run and exits 1.
# Swift itself is not installed here (expected at /opt/swift/usr/bin or on PATH).
set -euo pipefail

packages=(libjpeg62-turbo-dev libpng-dev libwebp-dev libgif-dev libjxl-dev libraw-dev libheif-dev libheif-examples liblcms2-dev colord-data libgs-common libssl-dev libsqlite3-dev pkg-config python3 python3-pil
          tmux zsh fish neovim systemd
          libchafa-dev libglib2.0-dev chafa
          xterm xvfb xfonts-base x11-apps netpbm)
packages+=(man-db groff-base)  # `man -l` checks the generated man pages (ManPageTests)
packages+=(python3-venv)  # clients/python: the README's pip install in a fresh venv (test_package)
packages+=(kitty fonts-dejavu-core libgl1-mesa-dri)  # a real kitty under Xvfb (software GL): picker.nvim's kitty placement (NvimKittyTests)
# emacs-lucid is both the terminal Emacs (-nw in tmux) and the graphic one under Xvfb
# (pickerd-graphic-test.el); it conflicts with emacs-nox, so asking for both fails on a fresh machine.
packages+=(emacs-lucid)
packages+=(ncurses-term mlterm)  # mlterm, a second real sixel terminal under Xvfb (PickMltermTests), and its terminfo (PickGridTests)
packages+=(libjxl-tools libimage-exiftool-perl)  # djxl/cjxl and exiftool: the JPEG XL and RAW references (JXLDecoderTests, RAWDecoderTests)
# pickerd-portal: sd-bus (libsystemd-dev); its tests run a private dbus-daemon, call it with gdbus
# (libglib2.0-bin) and python3-dbus, put the real xdg-desktop-portal frontend in front of it and
# ask it from a GTK app (zenity, on Xvfb).
packages+=(libsystemd-dev dbus-daemon libglib2.0-bin python3-dbus python3-gi xdg-desktop-portal zenity)
for set in "$@"; do
    case "$set" in
        bench) packages+=(libvips-tools imagemagick hyperfine) ;;
        *) echo "install-deps: unknown package set '$set' (known: bench)" >&2; exit 2 ;;
    esac
done

# One dpkg-query for all packages; unknown packages print nothing on stdout.
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null || true)
missing=()
for p in "${packages[@]}"; do
    if ! grep -qxF "$p install ok installed" <<<"$installed"; then
        missing+=("$p")
    fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

apt_install=(apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=300 "${missing[@]}")
if [[ $EUID -ne 0 ]]; then
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: run as root: DEBIAN_FRONTEND=noninteractive ${apt_install[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive

log=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX")
trap 'rm -f "$log"' EXIT

updated=0
apt_update() {
    echo "install-deps: apt-get update" >&2
    if ! apt-get update -o DPkg::Lock::Timeout=300 >>"$log" 2>&1; then
        tail -n 20 "$log" >&2
        echo "install-deps: apt-get update failed" >&2
        exit 1
    fi
    updated=1
}

# Refresh the package lists only when one of the missing packages is unknown
# to them (fresh image with empty lists).
for p in "${missing[@]}"; do
    if ! apt-cache show "$p" >/dev/null 2>&1; then
        apt_update
        break
    fi
done

if ! "${apt_install[@]}" >>"$log" 2>&1; then
    # Stale lists can name versions the mirror no longer has: refresh once, retry.
    if [[ $updated -eq 0 ]]; then
        apt_update
        if ! "${apt_install[@]}" >>"$log" 2>&1; then
            tail -n 20 "$log" >&2
            echo "install-deps: apt-get install failed: ${missing[*]}" >&2
            exit 1
        fi
    else
        tail -n 20 "$log" >&2
        echo "install-deps: apt-get install failed: ${missing[*]}" >&2
        exit 1
    fi
fi

for p in "${missing[@]}"; do
    echo "install-deps: installed $p"
done
