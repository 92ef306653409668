"""What ships to students and to grading platforms: the package as a wheel, its pinned
requirements, and nbgrader's delimiters that no shipped file may contain.

Used by the student kit (`kit/`), the platform exports (`platforms/bundle.py`) and the lab's hub
(`lab/hub.py`: which of nbgrader's parts are the instructor's).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# nbgrader's JupyterLab plugins and server extensions that only instructors need: the student kit
# turns them off (kit/), the lab's hub turns them back on for the instructor (lab/hub.py)
INSTRUCTOR_LAB_PLUGINS = ("@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                          "@jupyter/nbgrader:course-list")
INSTRUCTOR_SERVER_EXTENSIONS = ("nbgrader.server_extensions.formgrader",
                                "nbgrader.server_extensions.course_list")


def markers() -> tuple[str, ...]:
    """nbgrader's solution and hidden-test delimiters (read from nbgrader, so that this file, which
    the kit ships, does not itself contain them)."""
    from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions
    return (ClearSolutions.begin_solution_delimeter.default_value,
            ClearSolutions.end_solution_delimeter.default_value,
            ClearHiddenTests.begin_test_delimeter.default_value,
            ClearHiddenTests.end_test_delimeter.default_value)


class PackagingError(Exception):
    """A package (the kit, a platform export) cannot be built (one line)."""


def pinned_requirements() -> list[str]:
    """The package's runtime dependencies (not its extras), exactly as pinned in pyproject.toml."""
    from importlib.metadata import requires
    deps = [r for r in requires("jax-course-autograder") or [] if "extra ==" not in r]
    loose = [d for d in deps if "==" not in d]
    if loose:
        raise PackagingError(f"unpinned dependencies {loose}; pin them in pyproject.toml before building a kit")
    return deps


def project_root() -> Path:
    """The checkout this package is installed from (the kit's wheel is built from it)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").exists():
        raise PackagingError(f"no pyproject.toml at {root}: build the kit from the course's checkout")
    return root


def build_wheel(out: Path) -> Path:
    """The package as a wheel in `out`, built from a fresh copy of its sources (pyproject.toml,
    README.md and `autograder/`): setuptools reuses a checkout's `build/` folder, so a wheel built in
    place can carry modules that were moved or deleted since the folder was made."""
    import shutil
    import tempfile
    out.mkdir(parents=True, exist_ok=True)
    root = project_root()
    with tempfile.TemporaryDirectory(prefix="jaxcourse-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md"):
            if (root / name).exists():
                shutil.copy2(root / name, src / name)
        shutil.copytree(root / "autograder", src / "autograder",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out),
                            str(src)], capture_output=True, text=True)
    wheels = sorted(out.glob("*.whl"))
    if r.returncode != 0 or not wheels:
        raise PackagingError(f"pip wheel failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    return wheels[0]
