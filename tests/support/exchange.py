"""A class on one host, through nbgrader's own exchange: one instructor, one shared exchange folder,
and students with homes of their own (see `as_user.py` for how a student runs nbgrader under a uid
of their own).

Layout, in a fresh folder under the system's temp directory (pytest's own is 0700, which the
students' uids could not enter):

    clone/         a stand-in for the instructor's clone of this repository: its nbgrader_config.py,
                   the test's assignment in source/, and .venv, a link to the environment running
                   the tests (so `.venv/bin/autograder` there is this checkout's)
    instructor/    the instructor's home (0700): docs/INSTRUCTORS.md makes the course directory
                   there, as `~/jax-course`
    exchange/      not made here: the doc's own commands make it
    home/<name>/   each student's home (0700, their own), with the student's nbgrader_config.py
"""
from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from support.gradebook import make_course

AS_USER = Path(__file__).resolve().parent / "as_user.py"
# Student uids come from a range of their own, leased like the sandbox's worker uids (which start
# at 200,000), so that two test processes on one host never hand a uid to two students.
STUDENT_UID_BASE, STUDENT_UID_SPAN = 150_000, 40_000
LOGIN_PATH = "/usr/bin:/bin"


@dataclass
class Student:
    name: str
    home: Path
    uid: int

    def env(self) -> dict:
        """A login's environment, nothing inherited: a student's nbgrader sees no JUPYTER_* of the
        test runner and finds its config and cache through HOME."""
        return {"HOME": str(self.home), "USER": self.name, "LOGNAME": self.name,
                "PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"]),
                "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8",
                # a student reads their own config (HOME); jupyter would otherwise stat the checkout's
                # .venv to decide, which a student's uid cannot where the checkout is private
                "JUPYTER_PREFER_ENV_PATH": "0"}


@dataclass
class ClassOnOneHost:
    base: Path
    exchange: Path
    clone: Path
    instructor_home: Path
    students: dict[str, Student]
    separate_uids: bool
    course: Path | None = None        # the course directory, once the instructor has made it
    _leases: list = field(default_factory=list)

    def instructor_env(self) -> dict:
        """A new login's environment, nothing inherited but where temporary files go: no JUPYTER_*,
        no JAX_*, and a PATH of the system's folders only (so `nbgrader` and `autograder` run only
        by the path the doc gives them)."""
        name = pwd.getpwuid(os.getuid()).pw_name
        env = {"HOME": str(self.instructor_home), "USER": name, "LOGNAME": name, "PATH": LOGIN_PATH,
               "LANG": "C.UTF-8"}
        if os.environ.get("TMPDIR"):
            env["TMPDIR"] = os.environ["TMPDIR"]
        return env

    def start(self, name: str, steps: list) -> subprocess.Popen:
        """Run a student's steps (`as_user.py`) in their home, under their uid."""
        s = self.students[name]
        return subprocess.Popen([sys.executable, str(AS_USER), str(s.uid), json.dumps(steps)], cwd=s.home,
                                env=s.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def students_do(self, steps_by_student: dict[str, list], timeout: float = 120) -> dict:
        """Several students at once (as a class does): name -> CompletedProcess."""
        procs = {name: self.start(name, steps) for name, steps in steps_by_student.items()}
        done = {}
        try:
            for name, proc in procs.items():
                out, err = proc.communicate(timeout=timeout)
                done[name] = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        finally:
            for proc in procs.values():
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        return done

    def close(self):
        for lease in self._leases:
            lease.release()
        shutil.rmtree(self.base, ignore_errors=True)


def stand_in_clone(folder: Path, assignment: str) -> Path:
    """A clone of this repository as the instructor has it, but whose course is the test's one
    short assignment (named `assignment`), so grading the class takes seconds."""
    make_course(folder, (assignment,))
    (folder / ".venv").symlink_to(Path(sys.executable).parent.parent)
    return folder


def open_class(names: list[str], assignment: str, course_id: str = "jax-course") -> ClassOnOneHost:
    """The folders above. Under root each student gets a uid of their own (no passwd entry); as
    another user every student runs under that user's uid, in their own home."""
    from autograder.sandbox.host import UidLease
    base = Path(tempfile.mkdtemp(prefix="jaxcourse-class-"))
    base.chmod(0o711)
    clone = stand_in_clone(base / "clone", assignment)
    (base / "instructor").mkdir(mode=0o700)
    (base / "home").mkdir(mode=0o711)
    separate = os.geteuid() == 0
    klass = ClassOnOneHost(base, base / "exchange", clone, base / "instructor", {}, separate)
    for name in names:
        if separate:
            lease = UidLease(base=STUDENT_UID_BASE, span=STUDENT_UID_SPAN)
            klass._leases.append(lease)
            uid = lease.uid
        else:
            uid = os.getuid()
        home = base / "home" / name
        home.mkdir(mode=0o700)
        (home / "nbgrader_config.py").write_text(
            f"c = get_config()\nc.Exchange.root = {str(klass.exchange)!r}\nc.CourseDirectory.course_id = {course_id!r}\n")
        if separate:
            for path in (home, home / "nbgrader_config.py"):
                os.chown(path, uid, uid)
        klass.students[name] = Student(name, home, uid)
    return klass


def files_under(folder: Path) -> dict[str, str]:
    """relative path -> text of every file under `folder` (empty when it does not exist)."""
    if not folder.is_dir():
        return {}
    return {str(p.relative_to(folder)): p.read_text(errors="replace") for p in sorted(folder.rglob("*")) if p.is_file()}
