"""A class on one host, through nbgrader's own exchange: one instructor's course directory, one
shared exchange folder, and students with homes of their own (see `as_user.py` for how a student
runs nbgrader under a uid of their own).

Layout, in a fresh folder under the system's temp directory (pytest's own is 0700, which the
students' uids could not enter):

    exchange/      mkdir + `chmod ugo+rw`, as nbgrader's "Managing assignment files" says (0o777)
    course/        the instructor's: the project's nbgrader_config.py + `c.Exchange.root`, source/
    home/<name>/   each student's home (0700, their own), with the student's nbgrader_config.py
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from support.gradebook import _env, make_course

AS_USER = Path(__file__).resolve().parent / "as_user.py"
# Student uids come from a range of their own, leased like the sandbox's worker uids (which start
# at 200,000), so that two test processes on one host never hand a uid to two students.
STUDENT_UID_BASE, STUDENT_UID_SPAN = 150_000, 40_000


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
    course: Path
    students: dict[str, Student]
    separate_uids: bool
    _leases: list = field(default_factory=list)

    def instructor(self, *args, timeout: float = 120) -> subprocess.CompletedProcess:
        """`nbgrader ARGS` in the course directory, as the instructor (the tests' own uid)."""
        return subprocess.run([sys.executable, str(AS_USER), str(os.getuid()), json.dumps([["nbgrader", *args]])],
                              cwd=self.course, env=_env(), capture_output=True, text=True, timeout=timeout)

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


def quickstart(base: Path, assignment: str, exchange: Path, course_id: str) -> Path:
    """The instructor's course directory made as docs/INSTRUCTORS.md says, by `autograder
    quickstart` (run as a command), from a course root holding the test's own assignment."""
    root = make_course(base / "course-root", (assignment,))
    course = base / "course"
    done = subprocess.run([sys.executable, "-m", "autograder.cli", "quickstart", str(course), "--course-root",
                           str(root), "--exchange", str(exchange), "--course-id", course_id],
                          capture_output=True, text=True, timeout=60, env=_env())
    assert done.returncode == 0, done.stderr
    assert f"{course}/bin/nbgrader collect" in done.stdout, done.stdout      # the next commands, by path
    assert _mode(course) == 0o700 and "submitted/" in (course / ".gitignore").read_text()
    tools = subprocess.run([str(course / "bin" / "python"), "-c", "import nbgrader, autograder"], timeout=60)
    assert tools.returncode == 0                                            # bin/ runs this environment
    return course


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def open_class(names: list[str], assignment: str, course_id: str = "jax-course") -> ClassOnOneHost:
    """The folders above. Under root each student gets a uid of their own (no passwd entry); as
    another user every student runs under that user's uid, in their own home."""
    from autograder.sandbox.host import UidLease
    base = Path(tempfile.mkdtemp(prefix="jaxcourse-class-"))
    base.chmod(0o711)
    exchange = base / "exchange"
    exchange.mkdir()
    exchange.chmod(exchange.stat().st_mode | 0o666)          # chmod ugo+rw
    course = quickstart(base, assignment, exchange, course_id)
    (base / "home").mkdir(mode=0o711)
    separate = os.geteuid() == 0
    klass = ClassOnOneHost(base, exchange, course, {}, separate)
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
            f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\nc.CourseDirectory.course_id = {course_id!r}\n")
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
