"""gameproof installs like a library: the wheel that `pip install .` builds works with no checkout beside it.

The wheel is built offline from a copy of the checkout (``pip wheel --no-deps --no-build-isolation``: the
setuptools of the test extra; the copy keeps ``build/`` and ``*.egg-info`` out of the checkout) and installed,
without its dependencies, into a fresh virtual environment. The dependencies are this environment's: a ``.pth``
file in the new environment names this one's site-packages, a plain path that Python appends to ``sys.path``
without reading the ``.pth`` files in it, so the checkout's editable install (``src/`` on the path) stays out.
"""

import email.parser
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Files the package reads at run time besides its modules, as the wheel names them. None today: the demo's
#: puzzles and records are constants in gameproof/commands/demo.py, games are modules, and puzzle files
#: (`sudoku solve FILE`) and rule files (`solve FILE.py:...`) are the user's. A data file added under
#: src/gameproof must be declared in pyproject.toml ([tool.setuptools.package-data]) and listed here.
PACKAGE_DATA: set[str] = set()

#: What a checkout's source tree holds that no wheel may: byte code, numba's caches (they sit in
#: src/gameproof/**/__pycache__ after any run from the checkout) and build by-products.
STRAY = ("__pycache__/", ".pyc", ".nbi", ".nbc", ".egg-info/")


def _run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    environment.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", **env)
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=600)


def _checked(command: list[str], cwd: Path, **env: str) -> str:
    done = _run(command, cwd, **env)
    assert done.returncode == 0, f"{command} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    """The wheel built from a copy of the checkout, installed into a fresh environment: their paths."""
    top = tmp_path_factory.mktemp("install")
    source = top / "source"
    shutil.copytree(ROOT / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc", "*.nbi", "*.nbc"))
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, source / name)
    # What a checkout that has run anything holds: byte code and numba's caches beside the modules.
    for folder in (source / "src/gameproof/__pycache__", source / "src/gameproof/search/__pycache__"):
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("cli.cpython-311.pyc", "dfpn.search-40.py311.nbi", "dfpn.search-40.py311.1.nbc"):
            (folder / name).write_bytes(b"\0stale")

    dist = top / "dist"
    _checked([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
              "--no-cache-dir", "--quiet", "-w", str(dist), "."], cwd=source)
    wheels = list(dist.glob("gameproof-*.whl"))
    assert len(wheels) == 1, wheels

    venv = top / "venv"
    _checked([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=top)
    python = venv / "bin" / "python"
    _checked([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
              "--no-cache-dir", "--quiet", str(wheels[0])], cwd=top)
    site = Path(_checked([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         cwd=top).strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_gameproof_test_dependencies.pth").write_text("".join(f"{path}\n" for path in sorted(ours)))

    elsewhere = top / "elsewhere"  # the working directory of every run: no checkout, no src/ beside it
    elsewhere.mkdir()
    return {"source": source / "src/gameproof", "wheel": wheels[0], "venv": venv, "python": python, "site": site,
            "cwd": elsewhere, "numba_cache": str(top / "numba-cache")}


def test_the_wheel_holds_the_package_its_data_and_nothing_else(built):
    names = zipfile.ZipFile(built["wheel"]).namelist()
    assert {name.split("/")[0] for name in names} == {"gameproof", "gameproof-0.1.0.dist-info"}
    assert not [name for name in names if any(stray in name or name.endswith(stray) for stray in STRAY)]
    modules = {f"gameproof/{path.relative_to(built['source']).as_posix()}"
               for path in built["source"].rglob("*.py") if "__pycache__" not in path.parts}
    packaged = {name for name in names if name.startswith("gameproof/")}
    assert modules <= packaged, sorted(modules - packaged)  # games/mnk, a folder without __init__.py, included
    assert {name for name in packaged if not name.endswith(".py")} == PACKAGE_DATA


def test_the_wheels_metadata_names_the_dependencies_the_ray_extra_and_the_command(built):
    wheel = zipfile.ZipFile(built["wheel"])
    metadata = email.parser.Parser().parsestr(wheel.read("gameproof-0.1.0.dist-info/METADATA").decode())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    required = metadata.get_all("Requires-Dist")
    assert "ray" in metadata.get_all("Provides-Extra")
    assert [line for line in required if line.startswith("ray") and line.endswith('extra == "ray"')]
    assert {line.replace(" ", "") for line in required if "extra ==" not in line} == \
        {line.replace(" ", "") for line in project["dependencies"]}
    assert "gameproof = gameproof.cli:run_as_program" in wheel.read("gameproof-0.1.0.dist-info/entry_points.txt").decode()


def test_gameproof_imports_from_the_new_environment_not_the_checkout(built):
    shown = _checked([str(built["python"]), "-c", "import sys, gameproof, numba; "
                      "print(gameproof.__file__); print(numba.__file__); print(*sys.path, sep='\\n')"],
                     cwd=built["cwd"]).splitlines()
    package, numba, path = Path(shown[0]), Path(shown[1]), shown[2:]
    assert package.is_relative_to(built["site"]), package
    assert not package.is_relative_to(ROOT), package
    assert numba.is_relative_to(sysconfig.get_paths()["purelib"])  # the dependencies: this environment's
    assert str(ROOT / "src") not in path and str(ROOT) not in path


def test_the_demo_runs_from_the_wheel(built):
    gameproof = str(built["venv"] / "bin" / "gameproof")
    quick = ["--quick"] if "--quick" in _checked([gameproof, "demo", "--help"], cwd=built["cwd"]) else []
    done = _run([gameproof, "demo", *quick], cwd=built["cwd"], NUMBA_CACHE_DIR=built["numba_cache"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "gameproof demo" in done.stdout and "Traceback" not in done.stdout + done.stderr


def test_a_solve_runs_from_the_wheel(built):
    gameproof = str(built["venv"] / "bin" / "gameproof")
    done = _run([gameproof, "solve", "mnk:3,3,3", "--json"], cwd=built["cwd"],
                NUMBA_CACHE_DIR=built["numba_cache"])
    assert done.returncode == 0, done.stdout + done.stderr
    answer = json.loads(done.stdout)
    assert (answer["game"], answer["value"]) == ("mnk:3,3,3", "draw")
    assert set(answer["moves"].values()) == {"draw"} and len(answer["moves"]) == 9
