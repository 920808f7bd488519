"""pbem as users install it: a wheel built from the checkout, installed (not editable) into a
fresh venv. An editable install reads games/ and templates/ from the checkout, so it hides
package data the wheel forgets; this one has only what the wheel carries.

Built once per test session: the first xdist worker to ask builds under the session's shared
temporary directory while holding a lock, the others wait and reuse it (``installed_pbem`` in
conftest.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

from tests.support.sessionwide import made_once

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Installed:
    wheel: Path  # the wheel built from the checkout
    checkout: Path  # the copy it was built from: the checkout's files as git sees them
    files: tuple[str, ...]  # those files, relative paths
    venv: Path  # the fresh venv it is installed in

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def run(self, program: str, *args: str | Path, cwd: Path,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``program ARGS`` (``pbem`` or ``python``) from the installed venv, in ``cwd``, with
        none of the environment that points a pbem at the checkout."""
        return subprocess.run([str(self.venv / "bin" / program), *map(str, args)], cwd=cwd,
                              env=clean_env(), capture_output=True, text=True, timeout=timeout,
                              check=False)


def clean_env() -> dict[str, str]:
    """The environment without what would make an installed pbem read the checkout (the test
    session's games roots, template directory, import path)."""
    drop = {"PBEM_GAMES_DIR", "PBEM_TEMPLATES_DIR", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV",
            "PYTHONPYCACHEPREFIX"}  # the installed pbem reads the bytecode pip compiled
    return {k: v for k, v in os.environ.items() if k not in drop}


def checkout_files() -> list[str]:
    """The checkout's files as a user who cloned it (plus uncommitted work) would have them:
    tracked and untracked files, less what .gitignore names (venvs, caches, build output)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                         cwd=REPO, capture_output=True, check=True).stdout.decode()
    return sorted(p for p in set(out.split("\0")) if p and os.path.lexists(REPO / p))


def _copy(files: list[str], dest: Path) -> None:
    for rel in files:
        src, dst = REPO / rel, dest / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():  # pbem/_games -> ../games: the wheel takes the games through it
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)


def build(where: Path) -> Installed:
    """Copy the checkout to ``where``, build its wheel (pip wheel, as ``pip install .`` does;
    in a copy, so no stale build/ of the checkout can slip into it) and install it into a new
    venv with its dependencies. The venv is made without pip of its own (``ensurepip`` cost
    7 s of CPU, a third of the build): this interpreter's pip installs into it (``pip
    --python``, run by the venv's interpreter), which puts the same files there."""
    files = checkout_files()
    checkout, wheels, env = where / "checkout", where / "wheels", where / "venv"
    _copy(files, checkout)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
          str(checkout)])
    (wheel,) = wheels.glob("pbem-*.whl")
    venv.EnvBuilder(with_pip=False, clear=True).create(env)
    _run([sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install", "-q",
          "--disable-pip-version-check", str(wheel)])
    return Installed(wheel, checkout, tuple(files), env)


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, env=clean_env(), cwd="/",
                          timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")


def shared(base: Path) -> Installed:
    """The session's one build under ``base`` (a directory every xdist worker sees): built by
    the first caller, under a lock; a failed build is retried by the next caller."""
    where = made_once(base / "installed-pbem", _build_anew)
    (wheel,) = (where / "wheels").glob("pbem-*.whl")
    return Installed(wheel, where / "checkout", tuple(checkout_files()), where / "venv")


def _build_anew(where: Path) -> None:
    for part in ("checkout", "wheels", "venv"):  # what a failed build left
        shutil.rmtree(where / part, ignore_errors=True)
    build(where)
