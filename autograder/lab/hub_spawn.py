"""What runs inside JupyterHub for `autograder lab-hub`: the hub's settings and each server's share.

`lab/hub.py` prepares a folder and writes `hub.json` and a two-line `jupyterhub_config.py` that
calls `configure(c, hub.json)` here; JupyterHub loads it in its own process (the project's Python,
as root). Everything a server gets is decided here, at spawn time:

- **The role.** The course's instructor gets the instructor's Jupyter settings (Formgrader, Create
  Assignment, the course directory as nbgrader's root); every other allowed user is a student and
  gets the student kit's settings (the instructor's menus hidden) plus the course id and exchange.
  The two settings folders reach the server by `JUPYTER_CONFIG_PATH`, ahead of the environment's own.
- **The devices** (`Shares`). A student's server takes the least-held GPU of the students' cards
  (ties round robin) through `sandbox.devices.Lease`, and its variables come from
  `sandbox.devices.share_environment`, the same function that writes each grading worker's share:
  no preallocation, and JAX's default 75% of the card split between `students_per_gpu`. The
  lease is given back when the server stops. Cards reserved for grading are never leased to a
  student; the instructor's server (and so the instructor's terminal, where `autograder autograde`
  runs) sees only those, so the graders' workers take their shares there. Where there is no GPU,
  nothing is set and JAX runs on the CPU; where every GPU is reserved, students get the CPU
  (`JAX_PLATFORMS=cpu`, no visible GPU).
- **Limits.** `mem_limit` and `cpu_limit` are passed to the spawner, which for LocalProcessSpawner
  only exports them as `MEM_LIMIT` / `CPU_LIMIT` (nothing enforces them: SystemdSpawner or a
  container spawner does; docs/LABS.md).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..sandbox.devices import Lease, discover, plan_over, share_environment

STUDENT, INSTRUCTOR = "student", "instructor"
# PATH of a spawned server: the class environment first (nbgrader's commands, the kernel, the CLI)
_SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


class Shares:
    """The GPUs of the lab's hub: students' cards (leased per server) and the grading cards."""

    def __init__(self, gpus=None, grading_gpus=(), students_per_gpu: int = 4, environ=None):
        self.environ = dict(os.environ if environ is None else environ)
        if gpus is None:
            found = discover(self.environ)
            gpus = found.ids if found.kind == "gpu" else ()
        self.gpus = tuple(str(g) for g in gpus)
        unknown = [g for g in grading_gpus if str(g) not in self.gpus]
        if unknown:
            raise ValueError(f"grading GPUs {unknown} are not among the GPUs {list(self.gpus)}")
        self.grading = tuple(str(g) for g in grading_gpus)
        self.students_per_gpu = max(1, int(students_per_gpu))
        self.student_gpus = tuple(g for g in self.gpus if g not in self.grading)
        self.plan = plan_over(self.student_gpus, self.students_per_gpu * len(self.student_gpus))
        self.leases: dict[str, Lease] = {}

    def student(self, name: str) -> dict:
        """A student's server: one card of the students' (least held), its share of that card."""
        self.release(name)
        if not self.plan.groups:
            return {"JAX_PLATFORMS": "cpu", "CUDA_VISIBLE_DEVICES": ""} if self.gpus else {}
        lease = self.leases[name] = Lease(self.plan, self.environ)
        return share_environment(lease.devices, self.plan.workers_per_group, self.environ)

    def instructor(self) -> dict:
        """The instructor's server and terminal: the grading cards (every card where none is
        reserved). No memory fraction here: `autograder autograde` would pass an admin's fraction
        on to every worker, so the workers' own shares (over these cards) must be left to it."""
        cards = self.grading or self.gpus
        if not cards:
            return {}
        return {"CUDA_VISIBLE_DEVICES": ",".join(cards), "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}

    def release(self, name: str):
        lease = self.leases.pop(name, None)
        if lease is not None:
            lease.release()

    def table(self) -> list[str]:
        """One line per card: who may use it (for the command's start-up message)."""
        if not self.gpus:
            return ["no GPU found: every server runs JAX on the CPU"]
        fraction = share_environment((), self.students_per_gpu)["XLA_PYTHON_CLIENT_MEM_FRACTION"]
        return [f"GPU {g}: grading only (the instructor's server and `autograder autograde`)" if g in self.grading
                else f"GPU {g}: students, {self.students_per_gpu} per card, each at most {fraction} of its memory"
                for g in self.gpus]


def server_environment(settings: dict, name: str, shares: Shares) -> dict:
    """Everything the spawner adds to a server's environment, for user `name`."""
    role = INSTRUCTOR if name == settings["instructor"] else STUDENT
    env = {"JUPYTER_CONFIG_PATH": settings["config_dirs"][role],
           "PATH": f"{settings['env']}/bin:{_SYSTEM_PATH}",
           "JUPYTER_PREFER_ENV_PATH": "0"}
    env.update(shares.instructor() if role == INSTRUCTOR else shares.student(name))
    return env


def load(path) -> dict:
    return json.loads(Path(path).read_text())


def configure(c, path):
    """Fill JupyterHub's config object `c` from the settings `lab/hub.py` wrote to `path`."""
    s = load(path)
    state = s["state_dir"]
    c.JupyterHub.bind_url = f"http://{s['ip']}:{s['port']}"
    c.JupyterHub.hub_ip = "127.0.0.1"
    c.JupyterHub.hub_port = s["hub_port"]
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{s['proxy_api_port']}"
    c.ConfigurableHTTPProxy.command = [s["proxy"]]
    c.ConfigurableHTTPProxy.pid_file = f"{state}/proxy.pid"
    c.JupyterHub.db_url = f"sqlite:///{state}/jupyterhub.sqlite"
    c.JupyterHub.cookie_secret_file = f"{state}/jupyterhub_cookie_secret"
    c.JupyterHub.pid_file = f"{state}/jupyterhub.pid"
    c.JupyterHub.cleanup_servers = True
    c.JupyterHub.cleanup_proxy = True

    students, instructor = list(s["students"]), s["instructor"]
    if s["auth"] == "dummy":
        c.JupyterHub.authenticator_class = "dummy"
        c.DummyAuthenticator.password = s["password"]
    else:
        c.JupyterHub.authenticator_class = "pam"
    c.Authenticator.allowed_users = set(students) | {instructor}
    c.Authenticator.admin_users = {instructor}
    # nbgrader's JupyterHub groups for a course (its multi-course set-up reads them)
    c.JupyterHub.load_groups = {f"nbgrader-{s['course_id']}": {"users": students},
                                f"formgrade-{s['course_id']}": {"users": [instructor]}}

    c.JupyterHub.spawner_class = "localprocess"
    c.Spawner.cmd = [f"{s['env']}/bin/jupyterhub-singleuser"]
    c.Spawner.default_url = "/lab"
    c.Spawner.args = ["--LabApp.news_url=None"]
    c.Spawner.start_timeout = 120
    c.Spawner.http_timeout = 90
    if s.get("mem_limit"):
        c.Spawner.mem_limit = s["mem_limit"]
    if s.get("cpu_limit"):
        c.Spawner.cpu_limit = float(s["cpu_limit"])

    shares = Shares(s.get("gpus"), s.get("grading_gpus") or (), s.get("students_per_gpu", 4))

    def pre_spawn(spawner):
        extra = server_environment(s, spawner.user.name, shares)
        spawner.environment = {**spawner.environment, **extra}
        spawner.log.info("jax-course: %s gets %s", spawner.user.name,
                         {k: v for k, v in extra.items() if k not in ("PATH", "JUPYTER_CONFIG_PATH")})

    c.Spawner.pre_spawn_hook = pre_spawn
    c.Spawner.post_stop_hook = lambda spawner: shares.release(spawner.user.name)
